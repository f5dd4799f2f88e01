import { configFromEnv } from '@fabscope/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningDemo, startDemo } from '../src/index.ts';
import { eventually } from './eventually.ts';
import { startVictoriaMetrics, type VictoriaMetricsServer } from './victoria-metrics.ts';

const STORES = ['embedded', 'prometheus', 'victoria-metrics'] as const;
type StoreKind = (typeof STORES)[number];

interface Run {
  demo: RunningDemo;
  /** Pairs started (the traffic request answered), Unix ms. */
  t0: number;
  /** Adaptive routing turned on, Unix ms. */
  t1: number;
}

// biome-ignore lint/suspicious/noExplicitAny: JSON answers are checked field by field below
type Json = any;

const SECONDS_BEFORE_AR = 20;
const SECONDS_AFTER_AR = 20;
const STATIC_ISL = 'edge1/4->core2/1';
const IDLE_ISL = 'edge1/3->core1/1';

const api = async (demo: RunningDemo, path: string, init?: RequestInit) => {
  const response = await fetch(`${demo.apiUrl}/api/v1${path}`, init);
  return { status: response.status, body: (await response.json()) as Json };
};
const send = (demo: RunningDemo, path: string, body: unknown, method: string) =>
  api(demo, path, { method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
const secondsOf = (ms: number) => (ms / 1000).toFixed(3);
/** Waits for the scenario's own clock (the experiment needs wall time to pass, not a server). */
const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;
const until = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms - Date.now())));

/**
 * Seed 002 with history, through every store at once (one run of wall time for all three): the
 * pairs start at T0, adaptive routing goes on at T1 = T0 + 20 s, and afterwards the API answers
 * what the fabric looked like before and after — from the embedded store's history, from a real
 * Prometheus' recorded series, and from VictoriaMetrics fed by that Prometheus' remote write.
 */
describe('seed 002 with history: static, then adaptive routing, asked afterwards', () => {
  const runs = new Map<StoreKind, Run>();
  let vm: VictoriaMetricsServer | undefined;
  const demos: RunningDemo[] = [];

  beforeAll(async () => {
    vm = await startVictoriaMetrics();
    const config = { ...configFromEnv({}), host: '127.0.0.1', port: 0 };
    const writeUrl = vm.writeUrl;
    const vmUrl = vm.url;
    const started = await Promise.all(
      STORES.map((kind) =>
        startDemo(
          kind === 'embedded'
            ? { config }
            : kind === 'prometheus'
              ? { config, prometheus: true }
              : { config, prometheus: true, remoteWrite: [writeUrl], readPromqlFrom: vmUrl },
        ),
      ),
    );
    demos.push(...started);
    await Promise.all(
      started.map((demo) =>
        eventually(async () => expect((await api(demo, '/health')).body.status).toBe('ok'), 40_000),
      ),
    );
    const t0s = await Promise.all(
      started.map(async (demo) => {
        const answer = await send(
          demo,
          '/traffic',
          {
            pattern: 'pairs',
            pairs: [
              ['nodeA', 'nodeC'],
              ['nodeB', 'nodeD'],
            ],
          },
          'POST',
        );
        expect(answer.status).toBe(200);
        return Date.now();
      }),
    );
    await until(Math.max(...t0s) + SECONDS_BEFORE_AR * 1000);
    const t1s = await Promise.all(
      started.map(async (demo) => {
        const answer = await send(demo, '/adaptive-routing', { enabled: true, threshold: 7 }, 'PUT');
        expect(answer.status).toBe(200);
        return Date.now();
      }),
    );
    // Recorded series and remote write land a few seconds after the fact.
    await until(Math.max(...t1s) + (SECONDS_AFTER_AR + 4) * 1000);
    STORES.forEach((kind, i) => {
      runs.set(kind, { demo: started[i] as RunningDemo, t0: t0s[i] as number, t1: t1s[i] as number });
    });
  }, 150_000);

  afterAll(async () => {
    await Promise.all(demos.map((demo) => demo.stop()));
    await vm?.stop();
  });

  const points = <T extends { time: string }>(list: T[], fromMs: number, toMs: number) =>
    list.filter((p) => Date.parse(p.time) >= fromMs && Date.parse(p.time) <= toMs);

  describe.each(STORES)('through %s', (kind) => {
    const run = () => runs.get(kind) as Run;

    it('summary/history: 12.2–12.6 × 10⁹ B/s before T1, 24.2–25.0 × 10⁹ after', async () => {
      const { demo, t0, t1 } = run();
      const { status, body } = await api(
        demo,
        `/summary/history?from=${secondsOf(t0)}&to=${secondsOf(t1 + SECONDS_AFTER_AR * 1000)}&step=1s`,
      );
      expect(status, JSON.stringify(body)).toBe(200);
      const list = body.points as { time: string; hostTransmitBytesPerSecond: number | null }[];
      // One point a second over the window asked; T1 comes a little later than planned under load.
      expect(list.length).toBe(Math.floor((t1 - t0) / 1000) + SECONDS_AFTER_AR + 1);
      // The rates need their window to fill after each change: 7 s after T0, 10 s after T1.
      const before = points(list, t0 + 7000, t1 - 1000);
      const after = points(list, t1 + 10_000, t1 + SECONDS_AFTER_AR * 1000);
      expect(before.length).toBeGreaterThanOrEqual(10);
      expect(after.length).toBeGreaterThanOrEqual(8);
      // Every point of each phase in the band: the collector stamps its counters with the time it
      // read them and the stores take exact slopes (docs/metrics.md), so a scrape served late on a
      // loaded machine moves a sample's time, not its rate.
      const total = (p: Json) => p.hostTransmitBytesPerSecond as number;
      for (const p of before) {
        expect(total(p), p.time).toBeGreaterThanOrEqual(12.2e9);
        expect(total(p), p.time).toBeLessThanOrEqual(12.6e9);
      }
      for (const p of after) {
        expect(total(p), p.time).toBeGreaterThanOrEqual(24.2e9);
        expect(total(p), p.time).toBeLessThanOrEqual(25.0e9);
      }
      // The histograms of that time count every ISL direction.
      const histogram = (before[0] as Json).histogram;
      expect(histogram.isl.reduce((a: number, b: number) => a + b, 0)).toBeGreaterThan(0);
    });

    it('events hold the adaptive-routing change within 2 s of T1, and the traffic start', async () => {
      const { demo, t0, t1 } = run();
      const { status, body } = await api(demo, `/events?from=${secondsOf(t0 - 5000)}`);
      expect(status).toBe(200);
      const events = body.events as { time: string; kind: string; subject: string; detail: string }[];
      const ar = events.filter((e) => e.kind === 'adaptive-routing');
      expect(ar.length).toBe(1);
      expect(Math.abs(Date.parse((ar[0] as Json).time) - t1)).toBeLessThanOrEqual(2000);
      expect((ar[0] as Json).detail).toContain('enabled false → true');
      const traffic = events.find((e) => e.kind === 'traffic');
      expect(traffic?.detail).toContain('start pairs');
      expect(Math.abs(Date.parse(traffic?.time ?? '') - t0)).toBeLessThanOrEqual(2000);
    });

    it('summary?time=T0+10 gives the static figure; links?time=T0+10 one ISL full, the other idle', async () => {
      const { demo, t0 } = run();
      const at = secondsOf(t0 + 10_000);
      const summary = await api(demo, `/summary?time=${at}`);
      expect(summary.status).toBe(200);
      expect(summary.body.hostTransmitBytesPerSecond).toBeGreaterThanOrEqual(12.2e9);
      expect(summary.body.hostTransmitBytesPerSecond).toBeLessThanOrEqual(12.6e9);
      const { body } = await api(demo, `/links?time=${at}&kind=isl`);
      const byId = new Map((body.links as Json[]).map((l) => [l.id, l]));
      expect(byId.get(STATIC_ISL).utilization).toBeGreaterThanOrEqual(0.95);
      expect(byId.get(IDLE_ISL).utilization).toBeLessThanOrEqual(0.05);
      // The ranking is of that instant: the full ISL comes first (Prometheus ranks with topk).
      // Both ISLs on the static path (edge1→core2→edge2) are full: those two, never the idle one.
      const top = await api(demo, `/links?time=${at}&kind=isl&limit=2`);
      expect(top.status).toBe(200);
      expect(top.body.links.map((l: Json) => l.id).sort()).toEqual([STATIC_ISL, 'core2/2->edge2/4'].sort());
      for (const l of top.body.links) {
        expect(l.utilization, l.id).toBeGreaterThanOrEqual(0.95);
        expect(l.linkUp, l.id).toBe(true);
      }
    });

    it('links/history: edge1→core1 idle before T1, full after', async () => {
      const { demo, t0, t1 } = run();
      const { status, body } = await api(
        demo,
        `/links/history?id=${encodeURIComponent(IDLE_ISL)}&id=${encodeURIComponent(STATIC_ISL)}` +
          `&from=${secondsOf(t0)}&to=${secondsOf(t1 + SECONDS_AFTER_AR * 1000)}&step=1`,
      );
      expect(status, JSON.stringify(body)).toBe(200);
      expect(body.series.map((s: Json) => s.id)).toEqual([IDLE_ISL, STATIC_ISL]);
      const idle = body.series[0].points as { time: string; utilization: number | null }[];
      const before = points(idle, t0 + 7000, t1 - 1000);
      const after = points(idle, t1 + 10_000, t1 + SECONDS_AFTER_AR * 1000);
      expect(before.length).toBeGreaterThanOrEqual(10);
      const utilization = (p: Json) => p.utilization as number;
      expect(median(before.map(utilization))).toBeLessThanOrEqual(0.05);
      expect(median(after.map(utilization))).toBeGreaterThanOrEqual(0.95);
      for (const p of before) expect(p.utilization, p.time).toBeLessThanOrEqual(0.1);
      for (const p of after) expect(p.utilization, p.time).toBeGreaterThanOrEqual(0.85);
    });
  });
});
