import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { LabError } from './net-file.ts';

const PROMPT = 'sim> ';

interface Waiter {
  /** How many answers it waits for. */
  count: number;
  resolve: (answers: string[]) => void;
  reject: (error: Error) => void;
}

/** ibsim's console on its stdin and stdout: the banner, then each line sent, gets one answer ending in
 * the prompt, so the answers come in order and a batch of n lines takes the next n. */
export class IbsimConsole {
  /** Resolves at the first prompt: ibsim has parsed the net and listens. */
  readonly ready: Promise<string[]>;
  /** Rejects when ibsim exits, with the tail of its stderr. */
  readonly exited: Promise<never>;
  private pending = '';
  private stderr = '';
  private readonly answers: string[] = [];
  private readonly waiters: Waiter[] = [];

  constructor(private readonly ibsim: ChildProcessWithoutNullStreams) {
    ibsim.stdout.setEncoding('utf8');
    ibsim.stdout.on('data', (chunk: string) => this.take(chunk));
    ibsim.stderr.setEncoding('utf8');
    ibsim.stderr.on('data', (chunk: string) => {
      this.stderr = (this.stderr + chunk).slice(-4000);
    });
    this.exited = new Promise<never>((_, reject) =>
      ibsim.once('exit', (code, signal) => {
        const tail = this.stderr.trim().split('\n').slice(-3).join(' | ');
        const error = new LabError(`ibsim exited (${code ?? signal}): ${tail}`);
        for (const w of this.waiters.splice(0)) w.reject(error);
        reject(error);
      }),
    );
    this.exited.catch(() => undefined);
    this.ready = new Promise<string[]>((resolve, reject) => this.waiters.push({ count: 1, resolve, reject }));
  }

  /** Sends console lines; resolves with their answers, in order. */
  write(lines: string[]): Promise<string[]> {
    if (this.ibsim.exitCode !== null) return Promise.reject(new LabError('ibsim is not running'));
    const done = new Promise<string[]>((resolve, reject) =>
      this.waiters.push({ count: lines.length, resolve, reject }),
    );
    this.ibsim.stdin.write(`${lines.join('\n')}\n`);
    return done;
  }

  private take(chunk: string): void {
    this.pending += chunk;
    for (let at = this.pending.indexOf(PROMPT); at >= 0; at = this.pending.indexOf(PROMPT)) {
      this.answers.push(this.pending.slice(0, at).trim());
      this.pending = this.pending.slice(at + PROMPT.length);
    }
    while (this.waiters.length > 0 && (this.waiters[0] as Waiter).count <= this.answers.length) {
      const w = this.waiters.shift() as Waiter;
      w.resolve(this.answers.splice(0, w.count));
    }
  }
}
