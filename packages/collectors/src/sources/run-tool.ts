import { execFile } from 'node:child_process';

export class ToolTimeoutError extends Error {
  override name = 'ToolTimeoutError';
}

export interface RunToolOptions {
  timeoutMs: number;
  signal?: AbortSignal | undefined;
  /** Added to this process's environment (a simulated subnet's LD_PRELOAD and IBSIM_SOCKNAME). */
  env?: Readonly<Record<string, string>> | undefined;
  /** Working directory (a simulated subnet's preload writes into it). */
  cwd?: string | undefined;
}

/** Runs a fabric tool with execFile (no shell) and a timeout (ToolTimeoutError); resolves with its stdout. */
export function runTool(file: string, args: readonly string[], options: RunToolOptions): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      file,
      args,
      {
        timeout: options.timeoutMs,
        killSignal: 'SIGKILL',
        maxBuffer: 64 * 1024 * 1024,
        encoding: 'utf8',
        windowsHide: true,
        ...(options.env ? { env: { ...process.env, ...options.env } } : {}),
        ...(options.cwd ? { cwd: options.cwd } : {}),
        ...(options.signal ? { signal: options.signal } : {}),
      },
      (error, stdout, stderr) => {
        if (!error) {
          resolve(stdout);
          return;
        }
        const e = error as Error & { killed?: boolean; signal?: string | null; code?: unknown };
        if (e.killed || e.signal === 'SIGKILL' || e.name === 'AbortError') {
          reject(new ToolTimeoutError(`${file} ${args.join(' ')}: no answer within ${options.timeoutMs} ms`));
          return;
        }
        const detail = String(stderr).trim().split('\n').slice(-1)[0] ?? '';
        reject(
          new Error(
            `${file} ${args.join(' ')} failed (${String(e.code ?? e.signal)}): ${detail || e.message}`,
          ),
        );
      },
    );
  });
}

/** Runs `task` over `items` with at most `limit` at once, keeping the order of results. */
export async function mapBounded<T, R>(
  items: readonly T[],
  limit: number,
  task: (item: T) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await task(items[i] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
  return results;
}
