import { type ChildProcess, spawn } from 'node:child_process';
import { rm } from 'node:fs/promises';

export interface ServerProcess {
  child: ChildProcess;
  /** Resolves with how it stopped (`code 0`, `signal SIGKILL`). */
  exited: Promise<string>;
  /** Stops it (SIGTERM, SIGKILL after 5 s) and removes its data directory. */
  stop(): Promise<void>;
}

/** Runs a server binary and polls `readyUrl` until 2xx; a failure quotes the end of its stderr. */
export async function startServerProcess(options: {
  name: string;
  binary: string;
  args: string[];
  dataDir: string;
  readyUrl: string;
  readyTimeoutMs?: number;
}): Promise<ServerProcess> {
  const child = spawn(options.binary, options.args, { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4000);
  });
  const exited = new Promise<string>((resolve) =>
    child.once('exit', (code, signal) => resolve(signal ? `signal ${signal}` : `code ${code}`)),
  );
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(timer);
    }
    await rm(options.dataDir, { recursive: true, force: true });
  };
  const deadline = Date.now() + (options.readyTimeoutMs ?? 30_000);
  while (Date.now() < deadline) {
    if (child.exitCode !== null) {
      await stop();
      throw new Error(`${options.name} exited with code ${child.exitCode}: ${stderr.trim()}`);
    }
    const ready = await fetch(options.readyUrl, { signal: AbortSignal.timeout(1000) }).catch(() => null);
    if (ready?.ok) return { child, exited, stop };
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  await stop();
  throw new Error(`${options.name} did not become ready at ${options.readyUrl}: ${stderr.trim()}`);
}
