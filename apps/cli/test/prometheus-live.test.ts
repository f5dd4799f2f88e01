import {
  configFromEnv,
  EmbeddedStore,
  frameOf,
  type LinkDirectionState,
  LinkIndex,
  liveQueries,
  PrometheusStore,
  PromqlClient,
  statesOf,
  summarizeFrame,
} from '@fabscope/api';
import { buildScenario } from '@fabscope/topology';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningDemo, startDemo } from '../src/index.ts';
import { eventually } from './eventually.ts';
import { startSeedPairs } from './seed-pairs.ts';

/** One PromQL question the store asked, and the shape of Prometheus' answer. */
interface Asked {
  query: string;
  series: number;
  labelNames: Set<string>;
}

/**
 * The API's live tick with a real Prometheus on seed 002 (two pairs under static routing: one ISL
 * full, its senders waiting about half the time): it reads the collector's rates at the edge,
 * reduced to one short series per direction, never a rate of the raw counters of every port, and
 * gives the same link directions as the embedded store scraping the same collector.
 */
describe('the live tick with Prometheus', () => {
  let demo: RunningDemo;
  let embedded: EmbeddedStore;
  const fabric = buildScenario('ar-demo');
  const index = new LinkIndex(fabric);
  const asked: Asked[] = [];
  /** Fetch that notes every query and the labels of every series answered. */
  const noting: typeof fetch = async (input, init) => {
    const response = await fetch(input, init);
    const body = init?.body instanceof URLSearchParams ? init.body : new URL(String(input)).searchParams;
    const answer = (await response.clone().json()) as {
      data?: { result: { metric: Record<string, string> }[] };
    };
    const result = answer.data?.result ?? [];
    asked.push({
      query: body.get('query') ?? '',
      series: result.length,
      labelNames: new Set(result.flatMap((s) => Object.keys(s.metric))),
    });
    return response;
  };

  beforeAll(async () => {
    const config = { ...configFromEnv({}), host: '127.0.0.1', port: 0 };
    demo = await startDemo({ config, prometheus: true });
    embedded = new EmbeddedStore({ targets: demo.collectorUrls, scrapeIntervalMs: 1000 });
    embedded.start();
    await startSeedPairs(demo.apiUrl);
  }, 60_000);
  afterAll(async () => {
    await embedded?.close();
    await demo?.stop();
  });

  const prometheus = () =>
    new PrometheusStore({ url: demo.prometheusUrl as string, scrapeIntervalMs: 1000, fetch: noting });

  it('asks for the collector’s per-direction series aggregated per port, never a rate of a raw counter', async () => {
    asked.length = 0;
    const snapshot = await prometheus().rates();
    expect(snapshot.ok).toBe(true);
    expect(asked.length).toBeGreaterThan(0);
    const queries = asked.map((a) => a.query);
    expect(queries.some((q) => q.includes('fabscope_link_data_bytes_per_second'))).toBe(true);
    for (const a of asked) {
      // The raw path asked rate(fabscope_port_data_…_total[5s]) unless resets(…) for every port;
      // the collector rates each sweep itself, so nothing is rated here.
      expect(a.query).not.toMatch(/\b(rate|deriv|irate|increase)\(/);
      // Every answer is reduced to the port's key (and an error field), or one number: no series
      // carries the full label set (node_name, remote_*, fabric…), which made the raw answers big.
      for (const name of a.labelNames) expect(['node_guid', 'port', 'field', '__name__']).toContain(name);
      expect(a.series).toBeLessThanOrEqual(index.portKeys.size * 2);
    }
  });

  it('gives every link direction the embedded store gives: utilization and XmitWait within 0.02, link states equal', async () => {
    const store = prometheus();
    let compared: { prom: LinkDirectionState; emb: LinkDirectionState }[] = [];
    await eventually(async () => {
      const [p, e] = await Promise.all([store.rates(), embedded.rates()]);
      const prom = statesOf(frameOf(index, p));
      const emb = statesOf(frameOf(index, e));
      compared = prom.map((link, i) => ({ prom: link, emb: emb[i] as LinkDirectionState }));
      for (const { prom, emb } of compared) {
        expect(prom.utilization, prom.id).not.toBeNull();
        expect(emb.utilization, emb.id).not.toBeNull();
        expect(Math.abs((prom.utilization as number) - (emb.utilization as number)), prom.id).toBeLessThan(
          0.02,
        );
        expect(prom.linkUp, prom.id).toBe(emb.linkUp);
        expect(prom.transmitWaitFraction, prom.id).not.toBeNull();
        expect(
          Math.abs((prom.transmitWaitFraction as number) - (emb.transmitWaitFraction as number)),
          prom.id,
        ).toBeLessThan(0.02);
        // No errors counted on this fabric: known zero on both, not unknown.
        expect(prom.categories.integrity, prom.id).toBe(emb.categories.integrity);
      }
      const [ps, es] = [
        summarizeFrame(frameOf(index, p), true, 0),
        summarizeFrame(frameOf(index, e), true, 0),
      ];
      expect(ps.histogram).toEqual(es.histogram);
      expect(
        Math.abs((ps.hostTransmitBytesPerSecond as number) / (es.hostTransmitBytesPerSecond as number) - 1),
      ).toBeLessThan(0.01);
      // The traffic is on screen: one ISL full, its sender waiting.
      const full = compared.find((c) => c.prom.id === 'edge1/4->core2/1')?.prom;
      expect(full?.utilization).toBeGreaterThan(0.95);
      expect(full?.transmitWaitFraction).toBeGreaterThan(0.3);
    }, 30_000);
  }, 60_000);

  it('the reported fields and the age in one query answer what the two separate ones did', async () => {
    const client = new PromqlClient({ url: demo.prometheusUrl as string });
    // A window wide enough to hold a sweep that wrote the fields (only sweeps with error readings do).
    const heldMs = 60_000;
    // The two queries as they were before they were folded into one (commit d502122).
    const separate = {
      fields: `count by (field) (last_over_time(fabscope_fabric_error_fields_reported[${heldMs}ms]))`,
      age: 'time() - max(timestamp(fabscope_fabric_sweep_interval_seconds))',
    };
    const key = (s: { metric: Record<string, string> }) => JSON.stringify(Object.entries(s.metric).sort());
    const sorted = <T extends { metric: Record<string, string> }>(v: T[]) =>
      [...v].sort((a, b) => key(a).localeCompare(key(b)));
    await eventually(async () => {
      // One instant for every query, so every answer is of the same data.
      const atMs = Date.now();
      const [fields, age, folded] = await Promise.all(
        [separate.fields, separate.age, liveQueries(heldMs).fields].map((q) => client.query(q, atMs)),
      );
      expect(fields?.length).toBeGreaterThan(0);
      expect(age).toHaveLength(1);
      expect(sorted((folded ?? []).filter((s) => s.metric.field !== undefined))).toEqual(
        sorted(fields ?? []),
      );
      expect((folded ?? []).filter((s) => s.metric.field === undefined)).toEqual(age);
    }, 30_000);
  }, 40_000);
});
