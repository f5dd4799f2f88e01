import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { freePort } from './node-exporter.ts';

export interface RunningDemo {
  url: string;
  stop: () => Promise<void>;
}

/** `fabscope demo` (the binary at `bin`) run as a user would on a free loopback port, once /health is ok;
 * its output goes into the error when it ends early or is late; `stop`: SIGTERM, SIGKILL after 10 s. */
export async function startDemo(options: {
  bin: string;
  scenario: string;
  prometheus?: boolean;
  /** More arguments of `fabscope demo` (e.g. `--fabric ibsim`). */
  args?: readonly string[];
  /** More settings for the demo's environment (FABSCOPE_…). */
  env?: Record<string, string>;
  /** The biggest built-in fabric (fat-tree-27648) needs its first 10 s scrapes of 165,888 ports. */
  readyTimeoutMs?: number;
}): Promise<RunningDemo> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const args = [
    options.bin,
    'demo',
    ...(options.prometheus ? ['--prometheus'] : []),
    ...(options.args ?? []),
  ];
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
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-20_000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  // A test runner that gives up on a hook ends its worker without our afterAll: never leave the demo behind.
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  child.once('exit', () => process.off('exit', killOnExit));
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const killer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    await once(child, 'exit');
    clearTimeout(killer);
  };
  const timeoutMs = options.readyTimeoutMs ?? 150_000;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`fabscope demo exited early:\n${output}`);
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`fabscope demo did not report fresh data within ${timeoutMs / 1000} s:\n${output}`);
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
