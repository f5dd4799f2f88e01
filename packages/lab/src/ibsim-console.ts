import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { LabError } from './net-file.ts';

const PROMPT = 'sim> ';

interface Waiter {
  upTo: number;
  from: number;
  resolve: (answers: string[]) => void;
  reject: (error: Error) => void;
}

/** ibsim's console on its stdin and stdout: each line sent gets one answer, the text before the next
 * prompt (prompt 1 follows the banner), so n lines sent after `sent` others end at prompt sent+n+1. */
export class IbsimConsole {
  /** Resolves at the first prompt: ibsim has parsed the net and listens. */
  readonly ready: Promise<string[]>;
  /** Rejects when ibsim exits, with the tail of its stderr. */
  readonly exited: Promise<never>;
  private pending = '';
  private stderr = '';
  private prompts = 0;
  private sent = 0;
  private readonly answers = new Map<number, string>();
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
    this.ready = new Promise<string[]>((resolve, reject) =>
      this.waiters.push({ upTo: 1, from: 0, resolve, reject }),
    );
  }

  /** Sends console lines; resolves with their answers, in order. */
  write(lines: string[]): Promise<string[]> {
    if (this.ibsim.exitCode !== null) return Promise.reject(new LabError('ibsim is not running'));
    const from = this.sent + 1;
    this.sent += lines.length;
    const done = new Promise<string[]>((resolve, reject) =>
      this.waiters.push({ upTo: this.sent + 1, from, resolve, reject }),
    );
    this.ibsim.stdin.write(`${lines.join('\n')}\n`);
    return done;
  }

  private take(chunk: string): void {
    this.pending += chunk;
    let at = this.pending.indexOf(PROMPT);
    while (at >= 0) {
      this.answers.set(this.prompts, this.pending.slice(0, at).trim());
      this.prompts++;
      this.pending = this.pending.slice(at + PROMPT.length);
      at = this.pending.indexOf(PROMPT);
    }
    while (this.waiters.length > 0 && (this.waiters[0] as Waiter).upTo <= this.prompts) {
      const w = this.waiters.shift() as Waiter;
      const batch: string[] = [];
      for (let k = w.from; k < w.upTo; k++) {
        batch.push(this.answers.get(k) ?? '');
        this.answers.delete(k);
      }
      w.resolve(batch);
    }
  }
}
