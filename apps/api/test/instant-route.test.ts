import type { LinkDirectionState } from '@fabscope/contracts';
import { CATEGORY_NAMES, mulberry32, twoTierFatTree } from '@fabscope/topology';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMPACT_TOP_PER_KIND } from '../src/lib/compact-tick.ts';
import { LinkIndex } from '../src/lib/link-index.ts';
import { emptyPortRates, type PortRates, type RatesSnapshot } from '../src/lib/port-rates.ts';
import { EmbeddedTimeQueries, type ScrapeDone } from '../src/store/embedded-history.ts';
import type { MetricsStore } from '../src/store/types.ts';
import { buildTestApp } from './helper.ts';
import { TOP_RANKINGS } from './oracles/rankings.ts';

const START_MS = Date.UTC(2026, 10, 22, 10, 0, 0);
const iso = (seconds: number) => new Date(START_MS + seconds * 1000).toISOString();

// 24 edges × 12 hosts, 12 cores: 576 ISL and 576 host-link directions, more than the top keeps.
const fabric = twoTierFatTree({
  name: 'instants',
  radix: 24,
  edgeCount: 24,
  coreCount: 12,
  hostsPerEdge: 12,
});
const index = new LinkIndex(fabric);

/** Seconds `s`'s readings: seeded traffic, waits, errors on some ports, a link down. */
function readings(s: number): RatesSnapshot {
  const random = mulberry32(1000 + s);
  const ports = new Map<string, PortRates>();
  index.channels.forEach(({ fromKey, fixed }, c) => {
    const port = emptyPortRates();
    const load = random() < 0.1 ? 0 : random();
    port.transmitBytesPerSecond = load * fixed.capacityBytesPerSecond;
    port.receiveBytesPerSecond = port.transmitBytesPerSecond;
    port.transmitPacketsPerSecond = port.transmitBytesPerSecond / (256 + 4096 * random());
    port.receivePacketsPerSecond = port.transmitPacketsPerSecond;
    port.transmitWaitTicksPerSecond = random() * 1e8;
    port.transmitWaitTickSeconds = random() < 0.05 ? null : 1e-9;
    port.linkUp = c !== 7;
    port.errors = {
      symbolErrors: random() < 0.1 ? random() * 50 : 0,
      receiveErrors: random() < 0.05 ? random() * 5 : 0,
      linkDowned: 0,
      transmitConstraintErrors: random() < 0.03 ? random() : 0,
      receiveSwitchRelayErrors: random() < 0.03 ? random() * 3 : 0,
      vl15Dropped: random() < 0.05 ? random() : 0,
      linkQualityIndicator: random() < 0.05 ? 3 : 5,
    };
    if (random() < 0.02) delete port.errors;
    ports.set(fromKey, port);
  });
  return { timeMs: START_MS + s * 1000, ok: true, lastSampleAgeSeconds: 0, ports };
}

describe('GET /instant: a past instant as one stream message', () => {
  let app: FastifyInstance;
  const listeners = new Set<(done: ScrapeDone) => void>();
  let current = readings(0);
  const queries = new EmbeddedTimeQueries(
    {
      onScrape: (l) => {
        listeners.add(l);
        return () => listeners.delete(l);
      },
      rates: async () => current,
      staleAfterMs: () => 3000,
    },
    index,
    { intervalMs: 1000 },
  );

  beforeAll(async () => {
    for (let s = 0; s <= 5; s++) {
      current = readings(s);
      for (const l of listeners) l({ timeMs: START_MS + s * 1000, resetPorts: [] });
      await queries.settled();
    }
    const store = {
      kind: 'embedded',
      rates: async () => current,
      timeQueries: () => queries,
      close: async () => undefined,
    } as MetricsStore;
    app = await buildTestApp({ fabric, linkIndex: index, store });
  });
  afterAll(async () => {
    queries.close();
    await app?.close();
  });

  const get = async (url: string) => {
    const res = await app.inject(url);
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };

  it('has the top of /links?sort=…&time= for every sort the top carries, per kind', async () => {
    const at = iso(3.5);
    const message = await get(`/api/v1/instant?time=${at}`);
    expect(message.time).toBe(at);
    const sorts = ['utilization', 'transmitWaitFraction', ...CATEGORY_NAMES] as const;
    expect(sorts).toHaveLength(TOP_RANKINGS.length);
    for (const kind of ['isl', 'host'] as const) {
      const top = (message.top as LinkDirectionState[]).filter((l) => l.kind === kind);
      for (const [k, sort] of sorts.entries()) {
        const links = await get(
          `/api/v1/links?time=${at}&sort=${sort}&kind=${kind}&limit=${COMPACT_TOP_PER_KIND}`,
        );
        const fromTop = [...top].sort(TOP_RANKINGS[k]).slice(0, COMPACT_TOP_PER_KIND);
        expect(
          fromTop.map((l) => l.id),
          `${kind} by ${sort}`,
        ).toEqual(links.links.map((l: LinkDirectionState) => l.id));
        expect(fromTop).toEqual(links.links);
      }
    }
  });

  it('has the per-channel values, link states, errors and summary of /links and /summary at the instant', async () => {
    const at = iso(4.2);
    const message = await get(`/api/v1/instant?time=${at}&view=compact`);
    const all = (await get(`/api/v1/links?time=${at}&sort=id&order=asc&limit=5000`))
      .links as LinkDirectionState[];
    const byId = new Map(all.map((l) => [l.id, l]));
    expect(message.utilization).toHaveLength(index.channels.length);
    index.channels.forEach(({ fixed }, c) => {
      const link = byId.get(fixed.id) as LinkDirectionState;
      expect(message.utilization[c]).toBeCloseTo(link.utilization as number, 4);
      expect(link.packetsPerSecond).not.toBeNull();
    });
    // Port 7 is down: its link's two directions.
    expect(message.linkDown).toHaveLength(2);
    const erring = all.filter((l) => (l.errorsPerSecond ?? 0) > 0);
    expect(erring.length).toBeGreaterThan(0);
    // Every direction with errors counted is listed, with its rate.
    const listed = new Map<number, number>(
      message.errors.map((e: [number, number, number | null]) => [e[0], e[1]]),
    );
    for (const l of erring) {
      const c = index.channels.findIndex((ch) => ch.fixed.id === l.id);
      expect(listed.get(c)).toBeCloseTo(l.errorsPerSecond as number, 2);
    }
    expect(message.summary).toEqual(await get(`/api/v1/summary?time=${at}`));
    expect(message.summary.categories.integrity.unknown).toBeLessThan(index.channels.length);
    // view=full: the same instant as objects.
    const full = await get(`/api/v1/instant?time=${at}&view=full`);
    expect(full.links).toHaveLength(index.channels.length);
    expect(full.links.find((l: LinkDirectionState) => l.id === erring[0]?.id)).toEqual(erring[0]);
  });

  it('is unknown before the history, never 0; the instant is required', async () => {
    const before = await get(`/api/v1/instant?time=${iso(-60)}`);
    expect(before.utilization.every((u: number | null) => u === null)).toBe(true);
    expect(before.errorsUnknown).toBe(index.channels.length);
    expect(before.errors).toEqual([]);
    const res = await app.inject('/api/v1/instant');
    expect(res.statusCode).toBe(400);
  });
});
