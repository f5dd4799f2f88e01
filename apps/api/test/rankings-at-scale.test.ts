import type { LinkDirectionState } from '@fabscope/contracts';
import { naturalCompare } from '@fabscope/contracts/names';
import { buildScenario, fatTreeRouting } from '@fabscope/topology';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { COMPACT_TOP_PER_KIND } from '../src/lib/compact-tick.ts';
import { LinkIndex } from '../src/lib/link-index.ts';
import { emptyPortRates, type PortRates } from '../src/lib/port-rates.ts';
import { Sampler } from '../src/sampler.ts';
import type { MetricsStore } from '../src/store/types.ts';
import { compactTick } from './oracles/rankings.ts';

// fat-tree-6912 (41,472 directions): the stream's compact `top` must hold, for every ranking the
// API sorts by, the same first directions as `/links?sort=…&limit=…`, with equal values at the
// cut (a permutation makes many ports wait exactly as long), and by link kind too.
const fabric = buildScenario('fat-tree-6912');
const index = new LinkIndex(fabric);
const TICK = 1 / 1.25e10; // one byte time at 100 Gb/s, as the emulator's tick

/** Rates of a permutation-like load: many ports at the same few wait shares, a few with errors. */
function ratesOf(seed: number): Map<string, PortRates> {
  let s = seed;
  const random = () => {
    s = (s * 1103515245 + 12345) % 2 ** 31;
    return s / 2 ** 31;
  };
  const waits = [0, 0, 0, 0.1, 0.5, 0.858, 0.858, 0.858];
  const ports = new Map<string, PortRates>();
  for (const key of index.portKeys) {
    const wait = waits[Math.floor(random() * waits.length)] as number;
    const util = Math.round(random() * 10) / 10;
    ports.set(key, {
      ...emptyPortRates(),
      transmitBytesPerSecond: util * 1.25e10,
      receiveBytesPerSecond: util * 1.25e10,
      transmitPacketsPerSecond: util * 1e6,
      receivePacketsPerSecond: util * 1e6,
      transmitWaitTicksPerSecond: wait / TICK,
      transmitWaitTickSeconds: TICK,
      linkUp: true,
      errors: {
        receiveErrors: random() < 0.01 ? Math.floor(random() * 3) : 0,
        receiveConstraintErrors: random() < 0.005 ? 20 : 0,
        linkQualityIndicator: random() < 0.002 ? 3 : 5,
      },
    });
  }
  return ports;
}

describe('rankings at fat-tree-6912: the stream holds the head of every sort the API has', () => {
  let ports = ratesOf(7);
  const store: MetricsStore = {
    kind: 'embedded',
    rates: async () => ({ timeMs: Date.now(), ok: true, lastSampleAgeSeconds: 0, ports }),
    close: async () => {},
  };
  const sampler = new Sampler(store, index, 2000);
  const app = buildApp({
    state: {
      fabric: { fabric, tables: fatTreeRouting(fabric), linkIndex: index },
      store,
      sampler,
      emulator: null,
    },
    listenHost: '127.0.0.1',
  });
  beforeAll(async () => {
    await app;
  });
  afterAll(async () => (await app).close());

  const SORTS = ['utilization', 'transmitWaitFraction', 'integrity', 'congestion', 'security'] as const;
  const rankValue = (l: LinkDirectionState, sort: (typeof SORTS)[number]) =>
    sort === 'utilization' || sort === 'transmitWaitFraction' ? l[sort] : l.categories[sort];
  /** A client's ranking of `top`, as the dashboard's: worst first, unknown last, ties by id. */
  const clientTop = (top: LinkDirectionState[], sort: (typeof SORTS)[number], limit: number, kind?: string) =>
    top
      .filter((l) => !kind || l.kind === kind)
      .sort((a, b) => {
        const va = rankValue(a, sort) ?? -1;
        const vb = rankValue(b, sort) ?? -1;
        return va !== vb ? vb - va : naturalCompare(a.id, b.id);
      })
      .slice(0, limit)
      .map((l) => l.id);

  it.each([1, 2])(
    'tick %i: sort=congestion&limit=10 is the dashboard congestion ranking, and every other sort',
    async (seed) => {
      ports = ratesOf(seed);
      await sampler.sample();
      const tick = await sampler.current();
      const compact = compactTick(tick);
      // Far fewer than every direction travel as objects.
      expect(compact.top.length).toBeLessThan(tick.links.length / 20);
      const server = await app;
      for (const sort of SORTS) {
        for (const kind of [undefined, 'isl', 'host']) {
          const res = await server.inject({
            method: 'GET',
            url: `/api/v1/links?sort=${sort}&limit=10${kind ? `&kind=${kind}` : ''}`,
          });
          expect(res.statusCode).toBe(200);
          const api = (res.json().links as { id: string }[]).map((l) => l.id);
          expect(clientTop(compact.top, sort, 10, kind), `${sort} ${kind ?? 'all'}`).toEqual(api);
        }
      }
    },
  );

  it('holds for any limit up to the top size (property over limits and kinds)', async () => {
    await sampler.sample();
    const tick = await sampler.current();
    const compact = compactTick(tick);
    const server = await app;
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: COMPACT_TOP_PER_KIND }),
        fc.constantFrom(...SORTS),
        fc.constantFrom('isl', 'host'),
        async (limit, sort, kind) => {
          const res = await server.inject({
            method: 'GET',
            url: `/api/v1/links?sort=${sort}&limit=${limit}&kind=${kind}`,
          });
          const api = (res.json().links as { id: string }[]).map((l) => l.id);
          expect(clientTop(compact.top, sort, limit, kind)).toEqual(api);
        },
      ),
      { numRuns: 30 },
    );
  });
});
