import { readdirSync, readFileSync } from 'node:fs';
import { configFromEnv } from '@fabscope/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningIbsimDemo, startIbsimDemo } from '../src/index.ts';
import { eventually } from './eventually.ts';
import { startSeedPairs } from './seed-pairs.ts';

// biome-ignore lint/suspicious/noExplicitAny: JSON answers are checked field by field below
type Json = any;

const STALL_MS = 30_000;
const until = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms - Date.now())));

/** This process's children running the InfiniBand port reader (the collector's MAD reads), from /proc. */
function portReaders(): number[] {
  return readdirSync(`/proc/${process.pid}/task`)
    .flatMap((task) =>
      readFileSync(`/proc/${process.pid}/task/${task}/children`, 'utf8')
        .split(' ')
        .filter(Boolean)
        .map(Number),
    )
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('__ib-port-reader');
      } catch {
        return false;
      }
    });
}

// demo:ibsim's collector frozen (its MAD reader SIGSTOPped) for 30 s under steady traffic, then resumed: the history
// is unknown for about that long and never below the true rate, one `collection` event each way, no alarm change.
describe('the collector stalled for 30 s on the lab', () => {
  let demo: RunningIbsimDemo;
  let frozen: number[] = [];
  const times = { steady: 0, stop: 0, resume: 0, end: 0 };
  const api = async (path: string, init?: RequestInit): Promise<Json> =>
    (await fetch(`${demo.apiUrl}/api/v1${path}`, init)).json();

  beforeAll(async () => {
    const config = { ...configFromEnv({}), host: '127.0.0.1', port: 0 };
    demo = await startIbsimDemo({ config, routing: 'minhop' });
    await eventually(async () => expect((await api('/health')).status).toBe('ok'), 30_000);
    await startSeedPairs(demo.apiUrl);
    times.steady = Date.now() + 8000;
    await until(times.steady + 4000);
    frozen = portReaders();
    expect(frozen.length).toBeGreaterThan(0);
    times.stop = Date.now();
    for (const pid of frozen) process.kill(pid, 'SIGSTOP');
    await until(times.stop + STALL_MS);
    for (const pid of frozen) process.kill(pid, 'SIGCONT');
    frozen = [];
    times.resume = Date.now();
    await until(times.resume + 10_000);
    times.end = Date.now();
  }, 150_000);
  afterAll(async () => {
    for (const pid of frozen) process.kill(pid, 'SIGCONT');
    await demo?.stop();
  });

  it('leaves a gap of about the stall, never a value below the true rate, one collection event each way', async () => {
    const history = await api(`/summary/history?from=${times.steady / 1000}&to=${times.end / 1000}&step=1s`);
    const points = history.points as { time: string; hostTransmitBytesPerSecond: number | null }[];
    const known = points.filter((p) => p.hostTransmitBytesPerSecond !== null);
    const unknown = points.filter((p) => p.hostTransmitBytesPerSecond === null);
    const rate = known[0]?.hostTransmitBytesPerSecond as number;
    for (const p of known) expect((p.hostTransmitBytesPerSecond as number) / rate, p.time).toBeCloseTo(1, 1);
    expect(unknown.length).toBeGreaterThanOrEqual(22);
    expect(unknown.length).toBeLessThanOrEqual(36);
    const events = (await api(`/events?from=${(times.stop - 1000) / 1000}&limit=5000`)).events as {
      kind: string;
      severity: string;
    }[];
    expect(events.filter((e) => e.kind === 'collection').map((e) => e.severity)).toEqual(['warning', 'info']);
    expect(events.filter((e) => ['threshold', 'alarm'].includes(e.kind))).toEqual([]);
  });
});
