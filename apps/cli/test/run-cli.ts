import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** The `fabscope` command as a user runs it (bin/fabscope.js, through the compiled cache). */
export const BIN = fileURLToPath(new URL('../bin/fabscope.js', import.meta.url));

export interface CliRun {
  /** Exit code; 0 on success. */
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `fabscope ...args` to completion; a non-zero exit is an answer, not a thrown error. */
export function runCli(
  args: string[],
  options: { env?: Record<string, string>; timeoutMs?: number } = {},
): Promise<CliRun> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [BIN, ...args],
      { timeout: options.timeoutMs ?? 30_000, env: { ...process.env, ...options.env }, maxBuffer: 64 << 20 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}
