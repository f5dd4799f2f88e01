import { configFromEnv } from '@fabscope/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningDemo, startDemo } from '../src/index.ts';
import { eventually } from './eventually.ts';
import { startSeedPairs } from './seed-pairs.ts';

// biome-ignore lint/suspicious/noExplicitAny: JSON answers are checked field by field below
type Json = any;

const STALL_MS = 30_000;
/** Two pairs at 100 Gb/s: 12.375 × 10⁹ B/s from the hosts together (history-pipeline.test.ts). */
const TRUE_RATE = 12.375e9;
const until = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms - Date.now())));
const secondsOf = (ms: number) => (ms / 1000).toFixed(3);

/**
 * The demo's collector frozen (SIGSTOP) for 30 s under steady traffic, then resumed: the history is unknown for about
 * that long and never below the true rate on either side, no threshold crossing or alarm change comes of it, and one
 * `collection` event says data stopped, one that it is back.
 */
describe('a collector stalled for 30 s on the emulator demo', () => {
  let demo: RunningDemo | undefined;
  let collectorPid = 0;
  let stalled = false;
  const times = { steady: 0, stop: 0, resume: 0, end: 0 };
  let alarmsBefore: Json[] = [];
  const api = async (path: string, init?: RequestInit) => {
    const response = await fetch(`${demo?.apiUrl}/api/v1${path}`, init);
    return { status: response.status, body: (await response.json()) as Json };
  };

  beforeAll(async () => {
    const config = { ...configFromEnv({}), host: '127.0.0.1', port: 0 };
    demo = await startDemo({ config, webRoot: '/nonexistent' });
    collectorPid = demo.pipelinePids.collector;
    await eventually(async () => expect((await api('/health')).body.status).toBe('ok'), 40_000);
    await startSeedPairs(demo.apiUrl);
    // The history's rate window filled (5 s) and the congestion alarms raised by the two flows settled.
    times.steady = Date.now() + 8000;
    await until(times.steady + 4000);
    alarmsBefore = (await api('/alarms')).body.alarms;
    times.stop = Date.now();
    process.kill(collectorPid, 'SIGSTOP');
    stalled = true;
    await until(times.stop + STALL_MS);
    process.kill(collectorPid, 'SIGCONT');
    stalled = false;
    times.resume = Date.now();
    await until(times.resume + 8000);
    times.end = Date.now();
  }, 120_000);

  afterAll(async () => {
    if (stalled) process.kill(collectorPid, 'SIGCONT');
    await demo?.stop();
  });

  it('leaves a gap of about the stall in the history, never a value below the true rate', async () => {
    const { status, body } = await api(
      `/summary/history?from=${secondsOf(times.steady)}&to=${secondsOf(times.end)}&step=1s`,
    );
    expect(status).toBe(200);
    const points = body.points as { time: string; hostTransmitBytesPerSecond: number | null }[];
    const unknown = points.filter((p) => p.hostTransmitBytesPerSecond === null);
    for (const p of points) {
      if (p.hostTransmitBytesPerSecond === null) continue;
      expect(p.hostTransmitBytesPerSecond, p.time).toBeGreaterThanOrEqual(TRUE_RATE * 0.99);
      expect(p.hostTransmitBytesPerSecond, p.time).toBeLessThanOrEqual(TRUE_RATE * 1.01);
    }
    // One gap: from within the staleness limit (3.5 s) after the stop to a tick or two after the resume.
    expect(unknown.length).toBeGreaterThanOrEqual(25);
    expect(unknown.length).toBeLessThanOrEqual(34);
    const first = Date.parse((unknown[0] as { time: string }).time);
    const last = Date.parse((unknown[unknown.length - 1] as { time: string }).time);
    expect(last - first).toBe((unknown.length - 1) * 1000);
    expect(first).toBeGreaterThanOrEqual(times.stop);
    expect(first).toBeLessThanOrEqual(times.stop + 5000);
    expect(last).toBeGreaterThanOrEqual(times.resume - 2000);
    expect(last).toBeLessThanOrEqual(times.resume + 3000);
  });

  it('writes one collection event each way and no threshold or alarm change', async () => {
    const { body } = await api(`/events?from=${secondsOf(times.stop - 1000)}&to=${secondsOf(times.end)}`);
    const events = body.events as { time: string; kind: string; severity: string; detail: string }[];
    const collection = events.filter((e) => e.kind === 'collection');
    expect(collection.map((e) => e.severity)).toEqual(['warning', 'info']);
    expect(collection[0]?.detail).toMatch(/^no data since \d\d:\d\d:\d\d: /);
    expect(collection[1]?.detail).toMatch(/^data again: none from \d\d:\d\d:\d\d for (2\d|3\d)\.\d s/);
    expect(events.filter((e) => ['threshold', 'alarm', 'collection-gap'].includes(e.kind))).toEqual([]);
    const alarmsAfter = (await api('/alarms')).body.alarms as Json[];
    expect(alarmsAfter.map((a) => a.id)).toEqual(alarmsBefore.map((a) => a.id));
    expect(alarmsBefore.length).toBeGreaterThan(0);
  });
});
