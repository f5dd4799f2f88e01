import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';

/** A free TCP port on 127.0.0.1 (bound, read and released). */
export async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  server.close();
  await once(server, 'close');
  return port;
}

export interface RunningExporter {
  /** `http://127.0.0.1:PORT`. */
  base: string;
  pid: number;
  stop(): Promise<void>;
}

/**
 * A Prometheus exporter started on a free loopback port (`args(port)`), once its /metrics answers;
 * stopped and named with its exit code when it does not within 15 s.
 */
export async function startExporter(
  name: string,
  command: string,
  args: (port: number) => string[],
): Promise<RunningExporter> {
  const port = await freePort();
  const child = spawn(command, args(port), { stdio: 'ignore' });
  const base = `http://127.0.0.1:${port}`;
  const exited = once(child, 'exit');
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      await exited;
    }
  };
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline && child.exitCode === null) {
    if ((await fetch(`${base}/metrics`).catch(() => null))?.ok)
      return { base, pid: child.pid as number, stop };
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  await stop();
  throw new Error(`${name} did not answer at ${base}/metrics (exit code ${child.exitCode})`);
}
