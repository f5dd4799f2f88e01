import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';

const CLI = fileURLToPath(new URL('../packages/cli/bin/fabscope.js', import.meta.url));

function freePort(): Promise<number> {
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

/**
 * Starts the demo as a user would (`fabscope demo --prometheus`, a real Prometheus from PATH) on
 * free loopback ports, waits until the API has counter samples, and stops it all afterwards.
 */
export default async function globalSetup(): Promise<() => Promise<void>> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child: ChildProcess = spawn(process.execPath, [CLI, 'demo', '--prometheus'], {
    env: { ...process.env, HOST: '127.0.0.1', PORT: String(port), FABSCOPE_SCENARIO: 'ar-demo' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr?.on('data', (c: Buffer) => (output += c.toString()));
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`fabscope demo exited early:\n${output}`);
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`fabscope demo did not report fresh data within 60 s:\n${output}`);
    }
    try {
      const health = (await (await fetch(`${url}/api/v1/health`)).json()) as { status: string };
      if (health.status === 'ok') break;
    } catch {
      // not up yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  process.env.FABSCOPE_E2E_URL = url;
  return async () => {
    if (child.exitCode === null) {
      child.kill('SIGTERM');
      const killer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await once(child, 'exit');
      clearTimeout(killer);
    }
  };
}
