import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { configFromEnv } from '@fabscope/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningDemo, startDemo } from '../src/index.ts';
import { eventually } from './eventually.ts';

interface LinkState {
  id: string;
  utilization: number | null;
}

// The demo with a real Prometheus, killed with SIGKILL under traffic: the supervisor brings it
// back on the same port, /health returns to ok with no manual step, and while the new
// Prometheus's windows fill the link reads unknown, never lower than it really is.
describe('demo --prometheus when its Prometheus dies', () => {
  let demo: RunningDemo;
  const api = async (path: string, init?: RequestInit) => {
    const response = await fetch(`${demo.apiUrl}/api/v1${path}`, init);
    // biome-ignore lint/suspicious/noExplicitAny: JSON answers are checked field by field below
    return (await response.json()) as any;
  };
  const utilization = async (id: string) =>
    ((await api('/links?kind=host')).links as LinkState[]).find((l) => l.id === id)?.utilization ?? null;

  beforeAll(async () => {
    const config = { ...configFromEnv({}), host: '127.0.0.1', port: 0 };
    demo = await startDemo({ config, prometheus: true });
    await eventually(async () => expect((await api('/health')).status).toBe('ok'), 30_000);
  }, 60_000);
  afterAll(async () => {
    await demo?.stop();
  });

  it('is restarted, health is ok again within 30 s, and utilization never reads low after', async () => {
    await fetch(`${demo.apiUrl}/api/v1/traffic`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ pattern: 'pairs', pairs: [['nodeA', 'nodeC']] }),
    });
    const link = 'nodeA/1->edge1/1';
    const truth = await eventually(async () => {
      const u = await utilization(link);
      expect(u).toBeGreaterThan(0.95);
      return u as number;
    });
    const pid = demo.prometheus?.pid();
    expect(pid).toBeTypeOf('number');
    process.kill(pid as number, 'SIGKILL');
    const killedAt = Date.now();

    // Health says so while it is down, then recovers on its own.
    await eventually(async () => expect((await api('/health')).status).not.toBe('ok'), 15_000, 100);
    const readings: (number | null)[] = [];
    await eventually(
      async () => {
        readings.push(await utilization(link));
        expect((await api('/health')).status).toBe('ok');
      },
      30_000,
      200,
    );
    expect(Date.now() - killedAt).toBeLessThan(30_000);
    const health = await api('/health');
    expect(health.supervisor).toMatchObject({ restarts: 1, running: true, lastExit: 'signal SIGKILL' });
    expect(demo.prometheus?.pid()).not.toBe(pid);

    // From the restart on: every reading is unknown (windows filling) or the true value, never below;
    // read until the restarted Prometheus has answered 30 known ones (its windows full again).
    await eventually(
      async () => {
        readings.push(await utilization(link));
        expect(readings.filter((u) => u !== null).length).toBeGreaterThanOrEqual(30);
      },
      40_000,
      200,
    );
    const known = readings.filter((u): u is number => u !== null);
    for (const u of known) expect(u).toBeGreaterThanOrEqual(truth - 0.02);
  }, 90_000);
});

const BIN = fileURLToPath(new URL('../bin/fabscope.js', import.meta.url));

/** Process ids whose parent is `pid` (Linux /proc). */
function childrenOf(pid: number): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // Fields after the command's closing parenthesis: state, ppid, …
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === pid) found.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return found;
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

// The two signals' demos side by side (each test watches only its own process and children): one
// after the other, each demo's start (Prometheus's first sample) was waited for twice.
describe.concurrent.each(['SIGTERM', 'SIGINT'] as const)('fabscope demo --prometheus on %s', (signal) => {
  it('stops with every child within 5 s', async () => {
    const child = spawn(process.execPath, [BIN, 'demo', '--prometheus'], {
      env: { ...process.env, PORT: '0', FABSCOPE_SCENARIO: 'ar-demo' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
    });
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    await eventually(async () => expect(out).toMatch(/Ctrl-C stops everything/), 60_000, 100);
    const pid = child.pid as number;
    const prometheus = childrenOf(pid).filter((p) =>
      readFileSync(`/proc/${p}/cmdline`, 'utf8').includes('prometheus'),
    );
    expect(prometheus).toHaveLength(1);
    const started = Date.now();
    child.kill(signal);
    expect(await exited).toBe(0);
    expect(Date.now() - started).toBeLessThan(5000);
    for (const p of prometheus) expect(alive(p), `prometheus ${p}`).toBe(false);
  }, 90_000);
});
