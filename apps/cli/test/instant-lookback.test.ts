import { EDGE_SERIES, LinkIndex, PrometheusTimeQueries, PromqlClient } from '@fabscope/api';
import { buildScenario } from '@fabscope/topology';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from './eventually.ts';
import { type PairThroughPrometheus, pairThroughPrometheus } from './pair-through-prometheus.ts';

// The fabric at an instant, through a real Prometheus, when the collector's reads failed for a
// few seconds (a loaded host, a switch not answering). The collector stamps its rates with their
// read time, so Prometheus never marks them stale: a plain instant query would hold the last
// sweep's values for five minutes. An instant takes a series' newest value within the staleness
// limit (5 s at a 1 s interval), as the live view does; past it, unknown.
describe('instants through Prometheus look back as far as the staleness limit, no further', () => {
  const index = new LinkIndex(buildScenario('ar-demo'));
  let run: PairThroughPrometheus;
  let failing = false;
  /** When the reads started failing, Unix ms. */
  let failedAtMs = 0;

  beforeAll(async () => {
    run = await pairThroughPrometheus((real) => ({
      name: real.name,
      read: (signal) => (failing ? Promise.reject(new Error('switch not answering')) : real.read(signal)),
    }));
    // The collectors' host totals for a while, then 10 s of failed reads.
    const client = new PromqlClient({ url: run.prometheus.url, timeoutMs: 10_000 });
    await eventually(async () => {
      const [host] = await client.query(EDGE_SERIES.hostBytes, Date.now());
      expect(Number(host?.value[1])).toBeGreaterThan(12e9);
    }, 40_000);
    // A few sweeps recorded before the failure, then Prometheus's scrapes past what the tests ask.
    await eventually(async () => {
      const [recorded] = await client.query(`count_over_time(${EDGE_SERIES.hostBytes}[10s])`, Date.now());
      expect(Number(recorded?.value[1])).toBeGreaterThanOrEqual(3);
    }, 20_000);
    failing = true;
    failedAtMs = Date.now();
    await eventually(async () => {
      const [scraped] = await client.query('max(timestamp(up))', Date.now());
      expect(Number(scraped?.value[1]) * 1000).toBeGreaterThan(failedAtMs + 12_000);
    }, 30_000);
  }, 90_000);
  afterAll(() => run?.stop());

  it('reads the values of the last sweep before the failure within the limit, and unknown past it', async () => {
    const client = new PromqlClient({ url: run.prometheus.url, timeoutMs: 10_000 });
    const queries = new PrometheusTimeQueries(client, index, {
      scrapeIntervalMs: 1000,
      staleAfterSeconds: 5,
    });
    const host = EDGE_SERIES.hostBytes;
    const [last] = await client.query(`timestamp(${host})`, failedAtMs + 12_000);
    const lastSweepMs = Number(last?.value[1]) * 1000;
    expect(lastSweepMs).toBeGreaterThan(failedAtMs - 3000);
    expect(lastSweepMs).toBeLessThanOrEqual(failedAtMs + 1000);
    // Why the API holds values no further than its limit: Prometheus itself still answers them.
    expect(await client.query(host, lastSweepMs + 10_000)).toHaveLength(1);
    // Within the limit: the last sweep's values.
    const summary = await queries.summaryAt(lastSweepMs + 2000);
    expect(summary.hostTransmitBytesPerSecond).toBeGreaterThan(12e9);
    const links = await queries.linksAt(lastSweepMs + 2000);
    const toCore = links.links.find((l) => l.id.startsWith('edge1/') && (l.utilization ?? 0) > 0.9);
    expect(toCore, JSON.stringify(links.links.slice(0, 4))).toBeDefined();
    // Past the limit: unknown, never the old value.
    const pastLimitMs = lastSweepMs + 7000;
    expect((await queries.summaryAt(pastLimitMs)).hostTransmitBytesPerSecond).toBeNull();
    const later = await queries.linksAt(pastLimitMs);
    expect(later.links.filter((l) => l.utilization !== null)).toEqual([]);
  }, 60_000);

  it('reads the TSDB once for the frame of one instant asked twice (at once and after), again for another', async () => {
    let asked = 0;
    const counting: typeof fetch = (input, init) => {
      asked++;
      return fetch(input, init);
    };
    const client = new PromqlClient({ url: run.prometheus.url, timeoutMs: 10_000, fetch: counting });
    const queries = new PrometheusTimeQueries(client, index, {
      scrapeIntervalMs: 1000,
      staleAfterSeconds: 5,
    });
    const atMs = failedAtMs - 2000;
    const [first, second] = await Promise.all([queries.frameAt(atMs), queries.frameAt(atMs)]);
    const once = asked;
    expect(once).toBeGreaterThan(0);
    expect(second).toBe(first);
    expect(first.utilization.some((u) => u > 0.9)).toBe(true);
    // `/links?time=` after `/instant` at the same instant: the same frame, no query.
    expect((await queries.linksAt(atMs)).links.length).toBe(index.channels.length);
    expect(asked).toBe(once);
    await queries.frameAt(atMs - 1000);
    expect(asked).toBe(2 * once);
  }, 30_000);
});
