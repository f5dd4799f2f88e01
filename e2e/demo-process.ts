import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';

const CLI = fileURLToPath(new URL('../apps/cli/bin/fabscope.js', import.meta.url));

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

export interface RunningDemo {
  url: string;
  stop: () => Promise<void>;
}

/**
 * Starts `fabscope demo` as a user would, on free loopback ports, and waits until the API has
 * fresh counter samples. `prometheus` adds `--prometheus` (a real Prometheus from PATH).
 */
export async function startDemo(options: {
  scenario: string;
  prometheus?: boolean;
  /** More settings for the demo's environment (FABSCOPE_…). */
  env?: Record<string, string>;
}): Promise<RunningDemo> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const args = [CLI, 'demo', ...(options.prometheus ? ['--prometheus'] : [])];
  const child: ChildProcess = spawn(process.execPath, args, {
    env: {
      ...process.env,
      ...options.env,
      HOST: '127.0.0.1',
      PORT: String(port),
      FABSCOPE_SCENARIO: options.scenario,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr?.on('data', (c: Buffer) => (output += c.toString()));
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const killer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    await once(child, 'exit');
    clearTimeout(killer);
  };
  // The biggest built-in fabric (fat-tree-27648) needs its first 10 s scrape of 165,888 ports.
  const deadline = Date.now() + 150_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`fabscope demo exited early:\n${output}`);
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`fabscope demo did not report fresh data within 150 s:\n${output}`);
    }
    try {
      const health = (await (await fetch(`${url}/api/v1/health`)).json()) as { status: string };
      if (health.status === 'ok') break;
    } catch {
      // not up yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return { url, stop };
}
