import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { configFromEnv, type RunningApi, startApi } from '@fabscope/api';
import {
  createFabricRegistry,
  emulatorSource,
  type FabricSnapshot,
  type FabricSource,
  type MetricsServer,
  shardOfPort,
  sharedSource,
  startMetricsServer,
} from '@fabscope/collectors';
import { createEmulator, type EmulatorServer, startEmulatorServer } from '@fabscope/emulator';
import { fatTreeRouting, twoTierFatTree } from '@fabscope/topology';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { FABRIC_JOB, FAST_FAMILIES } from '../src/prometheus/prometheus.ts';
import { SHARD_SCRAPER_CONFIG, shardScraperConfig } from '../src/shard-scraper.ts';
import { eventually } from './eventually.ts';
import {
  startVictoriaMetrics,
  startVmagent,
  type VictoriaMetricsServer,
  type Vmagent,
} from './victoria-metrics.ts';

// The sharded shape of docs/scaling.md, for real: two collectors, one per switch group
// (`--shard 1/2`, `--shard 2/2`), each scraped by its own vmagent remote-writing into one central
// VictoriaMetrics, and an API reading PromQL from it — against a single store: one VictoriaMetrics
// scraping one unsharded collector itself, and an API reading it. All three collectors read the
// same emulator, and read it together: the test steps the fabric's reads (each step is one read
// of the emulator that every collector's sweep takes until the next step), and steps only once
// every store holds every collector's sweep of the step before. So both stores hold the same sweeps
// at the same instants, and the API's answers at a pinned instant must be the same.

// biome-ignore lint/suspicious/noExplicitAny: JSON answers are compared whole or field by field
type Json = any;

/** A fat tree of 32 hosts: 8 edge switches of 4 hosts and 4 up-links each, 4 core switches. */
const fabric = twoTierFatTree({ name: 'fat-tree-32', radix: 8, edgeCount: 8, coreCount: 4, hostsPerEdge: 4 });
const tables = fatTreeRouting(fabric);
/** Every cabled port sends one direction. */
const DIRECTIONS = fabric.links.length * 2;
const STEPS = 8;
/** The traffic changes before this step: the history has a before and an after. */
const CHANGE_AT = 4;
const SCRAPE_MS = 1000;

/** The dense series of the sweep stamped with its read time: one per direction, or per collector. */
const PER_DIRECTION = [
  'fabscope_link_data_bytes_per_second',
  'fabscope_link_transmit_wait_ratio',
  'fabscope_link_utilization_ratio',
] as const;
/** Per collector: its host total, its directions' utilization buckets (isl and host, ten each), its sweep. */
const PER_COLLECTOR = {
  fabscope_fabric_host_data_bytes_per_second: 1,
  fabscope_fabric_link_directions: 20,
  fabscope_fabric_sweep_interval_seconds: 1,
} as const;
/**
 * The sparse series of the sweep (docs/metrics.md): written only where not idle, and SPARSE_TAIL
 * sweeps after. A port that leaves idle for the first time — here the ports that wait half the
 * time once the incast starts, and so discard (the emulator's DISCARD_FRACTION of their packets
 * past its DISCARD_GRACE_MS) — writes a series the store has never seen, and VictoriaMetrics
 * makes a new series searchable only seconds after its samples land (its index: 1–10 s measured
 * on 1.79, a sample of a series it knows ~1 s). Until then the API reads the field as idle, as it
 * reads any absent field its collectors report. So the dense series' arrival says nothing of
 * these: each store is waited for until it holds every sparse sample its collectors wrote for the
 * sweep.
 */
const SPARSE = [
  'fabscope_port_error_detail',
  'fabscope_link_errors_per_second',
  'fabscope_link_pm_category_ratio',
] as const;

/**
 * The emulator's reads as the test steps them: until the next `step()`, every collector's read
 * is the same one (the demo's `sharedSource`, held), so every collector sweeps the same counters
 * stamped with the same time.
 */
function steppedSource(inner: FabricSource) {
  let current = sharedSource(inner, Number.POSITIVE_INFINITY);
  const source: FabricSource = { name: inner.name, read: (signal) => current.read(signal) };
  return {
    source,
    /** A new read of the emulator; its time (Unix ms) stamps every collector's next sweep. */
    async step(): Promise<FabricSnapshot> {
      current = sharedSource(inner, Number.POSITIVE_INFINITY);
      return current.read(AbortSignal.timeout(10_000));
    },
  };
}

interface Store {
  name: string;
  url: string;
  /** The /metrics of the collectors whose samples it holds. */
  collectors: string[];
}

async function promql(
  url: string,
  query: string,
): Promise<{ metric: Record<string, string>; value: [number, string] }[]> {
  const response = await fetch(`${url}/api/v1/query?query=${encodeURIComponent(query)}`, {
    signal: AbortSignal.timeout(5000),
  });
  const body = (await response.json()) as Json;
  if (body.status !== 'success') throw new Error(`${query}: ${JSON.stringify(body)}`);
  return body.data.result;
}

/** Series of `name` whose newest sample is stamped `timeMs` in the store. */
async function seriesAt(url: string, name: string, timeMs: number): Promise<number> {
  const result = await promql(url, `tlast_over_time(${name}[1m])`);
  return result.filter((s) => Math.round(Number(s.value[1]) * 1000) === timeMs).length;
}

/**
 * Samples of `name` stamped `timeMs` in a collector's own exposition (asking it again serves the
 * same sweep: a read scraped again is the same sweep). NaN samples are left out: VictoriaMetrics
 * stores none (none are written here: no emulated counter saturates).
 */
async function writtenAt(collectorUrl: string, name: string, timeMs: number): Promise<number> {
  const response = await fetch(`${collectorUrl}?name[]=${name}`, { signal: AbortSignal.timeout(5000) });
  const text = await response.text();
  let n = 0;
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const parts = line.split(' ');
    if (parts.at(-1) === String(timeMs) && !Number.isNaN(Number(parts.at(-2)))) n++;
  }
  return n;
}

/** Throws until the store holds every collector's whole sweep of `timeMs`, its sparse series too. */
async function holdsSweep(store: Store, timeMs: number): Promise<void> {
  for (const name of PER_DIRECTION) {
    const n = await seriesAt(store.url, name, timeMs);
    if (n !== DIRECTIONS) throw new Error(`${store.name}: ${n} of ${DIRECTIONS} ${name} at ${timeMs}`);
  }
  const collectors = store.collectors.length;
  for (const [name, each] of Object.entries(PER_COLLECTOR)) {
    const n = await seriesAt(store.url, name, timeMs);
    if (n !== each * collectors)
      throw new Error(`${store.name}: ${n} of ${each * collectors} ${name} at ${timeMs}`);
  }
  for (const name of SPARSE) {
    const written = await Promise.all(store.collectors.map((url) => writtenAt(url, name, timeMs)));
    const want = written.reduce((a, b) => a + b, 0);
    const n = await seriesAt(store.url, name, timeMs);
    if (n !== want) throw new Error(`${store.name}: ${n} of ${want} ${name} at ${timeMs}`);
  }
}

describe('the shard scraper config (deploy/vmagent/fabric-shard.yml)', () => {
  it('asks for the fast job the demo’s Prometheus asks for, keeping the collectors’ timestamps', () => {
    const config = parse(readFileSync(SHARD_SCRAPER_CONFIG, 'utf8')) as Json;
    const job = config.scrape_configs.find((c: Json) => c.job_name === FABRIC_JOB);
    expect(job.params['name[]']).toEqual([...FAST_FAMILIES]);
    expect(job.honor_timestamps).toBe(true);
  });

  it('is taken as it is shipped by vmagent and by Prometheus (promtool)', async () => {
    const run = promisify(execFile);
    await run('vmagent', [
      `-promscrape.config=${SHARD_SCRAPER_CONFIG}`,
      '-promscrape.config.dryRun',
      '-loggerLevel=ERROR',
    ]);
    await run('promtool', ['check', 'config', SHARD_SCRAPER_CONFIG]);
  });
});

describe('two collector shards, two vmagents, one central VictoriaMetrics: the answers of a single store', () => {
  let emulatorServer: EmulatorServer | undefined;
  const collectors: MetricsServer[] = [];
  const agents: Vmagent[] = [];
  const stores: VictoriaMetricsServer[] = [];
  let central: RunningApi | undefined;
  let single: RunningApi | undefined;
  /** The read time of each step from the second (times[i] is step i + 2), Unix ms. */
  const times: number[] = [];
  const portsPerShard = new Map<number, number>();
  /** Each step's read (by its time): every port's XmitDiscards as the emulator counted them. */
  const discards = new Map<number, Map<string, number | undefined>>();

  beforeAll(async () => {
    const emulator = createEmulator({ fabric, tables, seed: 1, startTimeMs: Date.now() });
    emulatorServer = await startEmulatorServer(emulator, { host: '127.0.0.1', port: 0, fromDateNow: true });
    const emulatorUrl = emulatorServer.url;
    const traffic = async (body: unknown) => {
      const response = await fetch(`${emulatorUrl}/v1/flows?first=0`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      expect(response.status, await response.clone().text()).toBe(200);
    };
    await traffic({ pattern: 'permutation', seed: 7 });

    const stepped = steppedSource(emulatorSource(emulatorUrl));
    const serve = async (shard?: { index: number; count: number }) => {
      const { scrapeChunks } = createFabricRegistry({ source: stepped.source, shard });
      const server = await startMetricsServer(scrapeChunks, { host: '127.0.0.1', port: 0 });
      collectors.push(server);
      return new URL(server.url).host;
    };
    const shardHosts = [await serve({ index: 1, count: 2 }), await serve({ index: 2, count: 2 })];
    const wholeHost = await serve();

    const scrape = (targets: string[]) => shardScraperConfig(targets, { scrapeIntervalMs: SCRAPE_MS });
    const centralVm = await startVictoriaMetrics();
    stores.push(centralVm);
    const singleVm = await startVictoriaMetrics({ scrapeConfig: scrape([wholeHost]) });
    stores.push(singleVm);
    for (const host of shardHosts) {
      agents.push(await startVmagent({ scrapeConfig: scrape([host]), remoteWriteUrl: centralVm.writeUrl }));
    }
    const config = {
      ...configFromEnv({}),
      host: '127.0.0.1',
      port: 0,
      sampleIntervalMs: SCRAPE_MS,
      collectorUrls: [],
    };
    central = await startApi({ ...config, prometheusUrl: centralVm.url }, fabric, { tables });
    single = await startApi({ ...config, prometheusUrl: singleVm.url }, fabric, { tables });

    const [shard1, shard2, whole] = collectors.map((c) => c.url);
    const watched: Store[] = [
      { name: 'central', url: centralVm.url, collectors: [shard1 as string, shard2 as string] },
      { name: 'single', url: singleVm.url, collectors: [whole as string] },
    ];
    // Every collector has swept the first read (the one made at its first scrape) before the
    // second: each store holds each of its collectors' source_up, written at a first scrape.
    await eventually(async () => {
      for (const store of watched) {
        const up = await promql(store.url, 'fabscope_fabric_source_up');
        if (up.length !== store.collectors.length)
          throw new Error(`${store.name}: ${up.length} collectors scraped`);
      }
    }, 30_000);
    // Step by step: the next read only once every store holds every collector's sweep of this
    // one, so no collector misses a read (its rates would then span two, and differ). The first
    // sweep with rates makes the series, which VictoriaMetrics shows ~10 s later (later ones in
    // ~2 s: a scrape and a remote-write flush): the instants compared start at the second. A
    // port's first errors make series too, seconds late likewise (SPARSE): waited for the same way.
    for (let k = 1; k <= STEPS; k++) {
      if (k === CHANGE_AT) await traffic({ pattern: 'incast', to: 'host1' });
      const snapshot = await stepped.step();
      if (k === 1) {
        for (const p of snapshot.ports) {
          const shard = shardOfPort(p, 2);
          portsPerShard.set(shard, (portsPerShard.get(shard) ?? 0) + 1);
        }
      }
      const timeMs = snapshot.countersReadAtMs as number;
      expect(timeMs, 'the emulator stamps its reads').toBeTypeOf('number');
      discards.set(
        timeMs,
        new Map(snapshot.ports.map((p) => [`${p.nodeName}/${p.portNumber}`, p.errors?.transmitDiscards])),
      );
      await eventually(() => Promise.all(watched.map((store) => holdsSweep(store, timeMs))), 30_000, 100);
      if (k > 1) times.push(timeMs);
    }
  }, 120_000);

  afterAll(async () => {
    await central?.close();
    await single?.close();
    for (const agent of agents) await agent.stop();
    for (const store of stores) await store.stop();
    for (const collector of collectors) await collector.close();
    await emulatorServer?.close();
  });

  const get = async (api: RunningApi | undefined, path: string) => {
    const response = await fetch(`${api?.url}/api/v1${path}`);
    const body = (await response.json()) as Json;
    expect(response.status, `${path}: ${JSON.stringify(body)}`).toBe(200);
    return body;
  };
  const both = (path: string) => Promise.all([get(central, path), get(single, path)]);
  const at = (timeMs: number) => (timeMs / 1000).toFixed(3);
  /** The last step before the traffic changed, and the last step. */
  const before = () => times[CHANGE_AT - 1 - 2] as number;
  const last = () => times[times.length - 1] as number;
  /**
   * The transmitDiscards the emulator counted for a direction at the read of `timeMs`: its
   * sender's XmitDiscards since the read before, over the time between the two reads.
   */
  const countedDiscards = (timeMs: number) => {
    const reads = [...discards.keys()];
    const previous = reads[reads.indexOf(timeMs) - 1] as number;
    const [was, is] = [discards.get(previous), discards.get(timeMs)];
    return (sender: string) =>
      ((is?.get(sender) as number) - (was?.get(sender) as number)) / ((timeMs - previous) / 1000);
  };

  it('the central store holds each direction once, half-ish from each shard’s vmagent', async () => {
    // Both switch groups own ports of this fabric.
    expect([...portsPerShard.keys()].sort()).toEqual([1, 2]);
    const centralUrl = stores[0]?.url as string;
    const perInstance = await promql(
      centralUrl,
      'count by (instance) (last_over_time(fabscope_link_utilization_ratio[1m]))',
    );
    expect(perInstance.length).toBe(2);
    const counts = perInstance.map((s) => Number(s.value[1]));
    for (const n of counts) expect(n).toBeGreaterThan(0);
    expect(counts.reduce((a, b) => a + b, 0)).toBe(DIRECTIONS);
    const distinct = await promql(
      centralUrl,
      'count(count by (node_guid, port) (last_over_time(fabscope_link_utilization_ratio[1m])))',
    );
    expect(Number(distinct[0]?.value[1])).toBe(DIRECTIONS);
  });

  it('/summary?time= is the single store’s, before and after the traffic changed', async () => {
    expect(times.length).toBe(STEPS - 1);
    for (const timeMs of [before(), last()]) {
      const [c, s] = await both(`/summary?time=${at(timeMs)}`);
      expect(s.staleLinks, 'every direction known').toBe(0);
      expect(s.hostTransmitBytesPerSecond).toBeGreaterThan(0);
      expect(c.time).toBe(s.time);
      expect(c.staleLinks).toBe(s.staleLinks);
      expect(c.histogram).toEqual(s.histogram);
      // The central total is the sum of two collectors' totals, the single one a sum over every
      // host in another order: equal to float rounding (VictoriaMetrics keeps ~15 significant digits).
      expect(Math.abs(c.hostTransmitBytesPerSecond / s.hostTransmitBytesPerSecond - 1)).toBeLessThan(1e-9);
      expect({ ...c, hostTransmitBytesPerSecond: 0 }).toEqual({ ...s, hostTransmitBytesPerSecond: 0 });
    }
  });

  it('/links?sort=utilization&time= ranks the same directions with the same figures', async () => {
    const answers = [];
    for (const timeMs of [before(), last()]) {
      const [c, s] = await both(`/links?sort=utilization&time=${at(timeMs)}`);
      expect(s.links.length).toBe(DIRECTIONS);
      expect(s.links[0].utilization).toBeGreaterThan(0.5);
      // Each direction's figures are the same samples in both stores: equal to float rounding,
      // the sparse error fields and categories with the rest (each store held its collectors'
      // every sparse sample of the step before the next: SPARSE, holdsSweep).
      expectSameRanking(c, s);
      // And the error fields are the emulator's counts: each host's XmitDiscards over the step.
      const counted = countedDiscards(timeMs);
      for (const answer of [c, s])
        for (const l of answer.links) {
          const expected = counted(`${l.from.node}/${l.from.port}`);
          expect(Number.isFinite(expected), l.id).toBe(true);
          expectWithin(l.errors.transmitDiscards, expected, VM_PRECISION, `${l.id} at ${timeMs}`);
        }
      answers.push(s);
    }
    // Ports that began to discard after the change (they wait half the time under the incast)
    // wrote series new to the stores between the two instants: the case compared above.
    const [was, is] = [discards.get(before()), discards.get(last())];
    const began = [...(is?.entries() ?? [])].filter(([port, n]) => (n ?? 0) > 0 && was?.get(port) === 0);
    expect(began.length).toBeGreaterThan(0);
    // The traffic changed between the two instants: the incast fills host1's link.
    const rank = (a: Json) => a.links.slice(0, 5).map((l: Json) => l.id);
    expect(rank(answers[1])).not.toEqual(rank(answers[0]));
    const intoHost1 = answers[1].links.find((l: Json) => l.id.endsWith('->host1/1'));
    expect(intoHost1.utilization).toBeGreaterThan(0.95);
  });

  it('/links/history over every step is the same, for the directions the change moved most', async () => {
    const [was, is] = await Promise.all(
      [before(), last()].map(
        async (t) => (await get(single, `/links?sort=id&time=${at(t)}`)).links as Json[],
      ),
    );
    const utilization = new Map((was ?? []).map((l) => [l.id as string, l.utilization as number]));
    const ids: string[] = (is ?? [])
      .map((l) => ({ id: l.id as string, moved: Math.abs(l.utilization - (utilization.get(l.id) ?? 0)) }))
      .sort((a, b) => b.moved - a.moved || a.id.localeCompare(b.id))
      .slice(0, 6)
      .map((l) => l.id);
    expect(ids.length).toBe(6);
    const query =
      ids.map((id) => `id=${encodeURIComponent(id)}`).join('&') +
      `&from=${at(times[0] as number)}&to=${at(last())}&step=1`;
    const [c, s] = await both(`/links/history?${query}`);
    expect(s.series.map((x: Json) => x.id)).toEqual(ids);
    const known = s.series.flatMap((x: Json) => x.points.filter((p: Json) => p.utilization !== null));
    expect(known.length).toBeGreaterThan(ids.length * (STEPS - 2));
    // The history shows the change: host1's link goes from half full (the permutation) to full.
    const moved = s.series.some((x: Json) => {
      const u = x.points.map((p: Json) => p.utilization).filter((v: number | null) => v !== null);
      return Math.max(...u) - Math.min(...u) > 0.4;
    });
    expect(moved).toBe(true);
    expectSameFigures(c, s);
    const [cs, ss] = await both(`/summary/history?from=${at(times[0] as number)}&to=${at(last())}&step=1`);
    expect(ss.points.length).toBeGreaterThan(STEPS - 2);
    expect(cs.points.map((p: Json) => [p.time, p.histogram])).toEqual(
      ss.points.map((p: Json) => [p.time, p.histogram]),
    );
    ss.points.forEach((p: Json, i: number) => {
      const total = cs.points[i].hostTransmitBytesPerSecond;
      if (p.hostTransmitBytesPerSecond === null) expect(total, p.time).toBeNull();
      else expect(Math.abs(total / p.hostTransmitBytesPerSecond - 1), p.time).toBeLessThan(1e-9);
    });
  });
});

/**
 * VictoriaMetrics keeps a value below 1e6 as a decimal of 12 significant digits (lib/decimal's
 * conversionPrecision, 1e12): what it answers is within 1e-12 of what was written, relatively,
 * and a few float roundings (the write's decimal and its way back to a float).
 */
const VM_PRECISION = 1e-12 + 4 * Number.EPSILON;

function expectWithin(actual: unknown, expected: number, relative: number, path: string): void {
  expect(actual, path).toBeTypeOf('number');
  const scale = Math.max(Math.abs(actual as number), Math.abs(expected));
  expect(Math.abs((actual as number) - expected), path).toBeLessThanOrEqual(relative * scale);
}

/**
 * The same ranking of directions: position by position the same utilization, and each direction
 * the same figures, as `expectSameFigures`. Two directions whose rates are equal but for the last
 * bit of a float (a sum made in another order) stand in either order: in one store they tie and
 * go by id, in the other one is a bit ahead.
 */
function expectSameRanking(actual: Json, expected: Json): void {
  expectSameFigures({ ...actual, links: [] }, { ...expected, links: [] });
  const [got, want] = [actual.links as Json[], expected.links as Json[]];
  expectSameFigures(
    got.map((l) => l.utilization),
    want.map((l) => l.utilization),
    '$.links[].utilization',
  );
  const wanted = new Map(want.map((l) => [l.id as string, l]));
  expect(wanted.size, 'each direction once').toBe(want.length);
  for (const [i, l] of got.entries()) {
    expect(wanted.has(l.id), `$.links[${i}].id ${l.id}`).toBe(true);
    expectSameFigures(l, wanted.get(l.id), `$.links[${i}] (${l.id})`);
  }
}

/**
 * The same answer, numbers equal to within 1e-12 of each other: the same samples go through
 * PromQL's range functions in another order of series in the two stores, which can move the last
 * bit of a float (6182241076.25061 against 6182241076.250609); anything else is exactly equal.
 */
function expectSameFigures(actual: unknown, expected: unknown, path = '$'): void {
  if (typeof actual === 'number' && typeof expected === 'number') {
    const scale = Math.max(Math.abs(actual), Math.abs(expected), Number.MIN_VALUE);
    expect(Math.abs(actual - expected) / scale, path).toBeLessThanOrEqual(1e-12);
    return;
  }
  if (Array.isArray(actual) && Array.isArray(expected)) {
    expect(actual.length, path).toBe(expected.length);
    for (const [i, v] of actual.entries()) expectSameFigures(v, expected[i], `${path}[${i}]`);
    return;
  }
  if (actual !== null && expected !== null && typeof actual === 'object' && typeof expected === 'object') {
    expect(Object.keys(actual).sort(), path).toEqual(Object.keys(expected).sort());
    for (const key of Object.keys(actual))
      expectSameFigures(
        (actual as Record<string, unknown>)[key],
        (expected as Record<string, unknown>)[key],
        `${path}.${key}`,
      );
    return;
  }
  expect(actual, path).toEqual(expected);
}
