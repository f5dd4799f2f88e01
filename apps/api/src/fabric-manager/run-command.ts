import { spawn } from 'node:child_process';
import type { CommandOutcome } from '@fabscope/contracts';

export type { CommandOutcome };

const TAIL_BYTES = 4096;

/** `a "b c" 'd'` → ['a', 'b c', 'd']: whitespace splits, quotes group; nothing else of a shell. */
export function parseCommandLine(text: string): string[] {
  const words: string[] = [];
  let word: string | null = null;
  let quote: string | null = null;
  for (const c of text) {
    if (quote !== null) {
      if (c === quote) quote = null;
      else word += c;
    } else if (c === '"' || c === "'") {
      quote = c;
      word ??= '';
    } else if (/\s/.test(c)) {
      if (word !== null) words.push(word);
      word = null;
    } else {
      word = (word ?? '') + c;
    }
  }
  if (quote !== null) throw new Error(`unterminated ${quote} in "${text}"`);
  if (word !== null) words.push(word);
  return words;
}

/** The last TAIL_BYTES of a stream. */
class Tail {
  private kept = Buffer.alloc(0);
  push(chunk: Buffer): void {
    this.kept = Buffer.concat([this.kept, chunk]);
    if (this.kept.length > 2 * TAIL_BYTES) this.kept = this.kept.subarray(-TAIL_BYTES);
  }
  text(): string {
    return this.kept.subarray(-TAIL_BYTES).toString('utf8');
  }
}

/** Runs `argv` without a shell and reports how it ended (SIGTERM at `timeoutMs`, SIGKILL 2 s later); never throws. */
export function runCommand(argv: readonly string[], timeoutMs: number): Promise<CommandOutcome> {
  const [file, ...args] = argv;
  const started = Date.now();
  const stdout = new Tail();
  const stderr = new Tail();
  return new Promise((resolve) => {
    let timedOut = false;
    let error: string | undefined;
    const child = spawn(file ?? '', args, { stdio: ['ignore', 'pipe', 'pipe'], shell: false });
    child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk));
    let killer: NodeJS.Timeout | undefined;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGTERM');
      killer = setTimeout(() => child.kill('SIGKILL'), 2000);
    }, timeoutMs);
    child.on('error', (e) => {
      error = e.message;
    });
    child.on('close', (exitCode, signal) => {
      clearTimeout(timer);
      clearTimeout(killer);
      resolve({
        command: [...argv],
        ok: exitCode === 0 && !timedOut && error === undefined,
        exitCode: error === undefined ? exitCode : null,
        signal,
        timedOut,
        stdout: stdout.text(),
        stderr: stderr.text(),
        ...(error === undefined ? {} : { error }),
        durationMs: Date.now() - started,
      });
    });
  });
}
