import { LinkIndex, PrometheusTimeQueries, PromqlClient } from '@fabscope/api';
import { buildScenario } from '@fabscope/topology';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from './eventually.ts';
import { type PairThroughPrometheus, pairThroughPrometheus } from './pair-through-prometheus.ts';

// The fabric at an instant, through a real Prometheus, when the collector's reads failed for a
// few seconds just before it (a loaded host): the recording rules skip evaluations and leave
// staleness markers, and a plain instant query read every direction as unknown there, while the
// live view, under the same staleness policy (5 s at a 1 s interval), still showed the values. An
// instant takes a series' newest value within that limit; past it, unknown.
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
    // Recorded host totals for a while, then 10 s of failed reads.
    const client = new PromqlClient({ url: run.prometheus.url, timeoutMs: 10_000 });
    await eventually(async () => {
      const now = Date.now();
      const [host] = await client.query('fabric:fabscope_host_link_data_bytes:rate5s', now);
      expect(Number(host?.value[1])).toBeGreaterThan(12e9);
    }, 40_000);
    await new Promise((resolve) => setTimeout(resolve, 3000));
    failing = true;
    failedAtMs = Date.now();
    await new Promise((resolve) => setTimeout(resolve, 13_000));
  }, 90_000);
  afterAll(() => run?.stop());

  it('reads the values of a rule gap from before it, and unknown once they are older than the limit', async () => {
    const client = new PromqlClient({ url: run.prometheus.url, timeoutMs: 10_000 });
    const queries = new PrometheusTimeQueries(client, index, {
      rateWindow: '5s',
      scrapeIntervalMs: 1000,
      staleAfterSeconds: 5,
    });
    const host = 'fabric:fabscope_host_link_data_bytes:rate5s';
    // The first instant after the reads failed where a plain instant query finds no host total
    // (the rule's staleness marker), and the rules' last sample before it.
    let inGapMs = 0;
    let lastRecordedMs = 0;
    for (let t = failedAtMs; t < failedAtMs + 12_000; t += 250) {
      const [series] = await client.query(`timestamp(${host})`, t);
      if (!series) {
        inGapMs = t;
        break;
      }
      lastRecordedMs = Number(series.value[1]) * 1000;
    }
    expect(inGapMs, 'the rules never stopped recording').toBeGreaterThan(0);
    expect(inGapMs - lastRecordedMs).toBeLessThan(4000);
    expect(await client.query(host, inGapMs)).toEqual([]);
    // The API's instant: the value from before the gap.
    const summary = await queries.summaryAt(inGapMs);
    expect(summary.hostTransmitBytesPerSecond).toBeGreaterThan(12e9);
    const links = await queries.linksAt(inGapMs);
    const toCore = links.links.find((l) => l.id.startsWith('edge1/') && (l.utilization ?? 0) > 0.9);
    expect(toCore, JSON.stringify(links.links.slice(0, 4))).toBeDefined();
    // Past the limit: unknown, never the old value.
    const pastLimitMs = lastRecordedMs + 7000;
    expect((await queries.summaryAt(pastLimitMs)).hostTransmitBytesPerSecond).toBeNull();
    const later = await queries.linksAt(pastLimitMs);
    expect(later.links.filter((l) => l.utilization !== null)).toEqual([]);
  }, 60_000);
});
