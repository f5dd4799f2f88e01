import type { LinkDirectionState } from '@fabscope/contracts';
import { PAGE_DEFAULT, PAGE_MAX } from '@fabscope/contracts';
import { naturalCompare } from '@fabscope/contracts/names';
import { buildScenario, type Fabric, fatTreeRouting } from '@fabscope/topology';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { LinkIndex } from '../src/lib/link-index.ts';
import { emptyPortRates, type PortRates } from '../src/lib/port-rates.ts';
import { Sampler } from '../src/sampler.ts';
import type { MetricsStore } from '../src/store/types.ts';

/**
 * A store whose every answer is a new instant: each port's packets/s is the number of the answer
 * (so a row tells which instant it was read at) and the bytes change with it (so the ranking
 * changes from one tick to the next).
 */
function tickingStore(index: LinkIndex): { store: MetricsStore; answers: () => number } {
  let answer = 0;
  const keys = [...index.portKeys];
  const store: MetricsStore = {
    kind: 'embedded',
    rates: async () => {
      answer++;
      const ports = new Map<string, PortRates>();
      keys.forEach((key, i) => {
        ports.set(key, {
          ...emptyPortRates(),
          transmitBytesPerSecond: ((i * 7919 + answer * 104_729) % 1000) * 1e7,
          receiveBytesPerSecond: ((i * 6007 + answer * 3) % 1000) * 1e7,
          transmitPacketsPerSecond: answer,
          receivePacketsPerSecond: answer,
          linkUp: true,
        });
      });
      return { timeMs: Date.now(), ok: true, lastSampleAgeSeconds: 0, ports };
    },
    close: async () => {},
  };
  return { store, answers: () => answer };
}

async function appOf(fabric: Fabric, intervalMs: number) {
  const index = new LinkIndex(fabric);
  const { store, answers } = tickingStore(index);
  const sampler = new Sampler(store, index, intervalMs);
  const app = await buildApp({
    state: {
      fabric: { fabric, tables: fatTreeRouting(fabric), linkIndex: index },
      store,
      sampler,
      emulator: null,
    },
    listenHost: '127.0.0.1',
  });
  return { app, sampler, index, answers };
}

interface Page {
  time: string;
  links: LinkDirectionState[];
  total: number;
  next?: string;
}

/** Every page of `first`'s list, walked with `next` (the other parameters left out, as a client does). */
async function walk(app: FastifyInstance, first: string, limit?: number): Promise<Page[]> {
  const pages: Page[] = [];
  let url: string | null = first;
  while (url !== null) {
    const res = await app.inject(url);
    expect(res.statusCode, url).toBe(200);
    const page = res.json() as Page;
    pages.push(page);
    url =
      page.next === undefined
        ? null
        : `/api/v1/links?cursor=${encodeURIComponent(page.next)}${limit ? `&limit=${limit}` : ''}`;
    // Ticks land between pages, as they do while a script walks a big fabric.
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
  return pages;
}

describe('/links pages at fat-tree-6912 while the fabric ticks on', () => {
  const fabric = buildScenario('fat-tree-6912');
  let built: Awaited<ReturnType<typeof appOf>>;
  beforeAll(async () => {
    // A tick every 150 ms: dozens of ticks while the pages are walked.
    built = await appOf(fabric, 150);
    await built.sampler.sample();
    built.sampler.start();
  }, 60_000);
  afterAll(async () => {
    await built.sampler.stop();
    await built.app.close();
  });

  it('walking every page yields each direction exactly once, all of the instant of the first page', async () => {
    const directions = fabric.links.length * 2;
    const ticksBefore = built.sampler.tickCount;
    const pages = await walk(built.app, '/api/v1/links');
    expect(built.sampler.tickCount - ticksBefore, 'ticks while walking').toBeGreaterThan(2);
    expect(pages.length).toBe(Math.ceil(directions / PAGE_DEFAULT));
    const rows = pages.flatMap((p) => p.links);
    expect(rows.length).toBe(directions);
    expect(new Set(rows.map((l) => l.id)).size).toBe(directions);
    // One instant: one time on every page, and every row read at the same answer of the store.
    expect(new Set(pages.map((p) => p.time)).size).toBe(1);
    expect(new Set(pages.map((p) => p.total))).toEqual(new Set([directions]));
    expect(new Set(rows.map((l) => l.packetsPerSecond)).size).toBe(1);
    // Sorted across pages (utilization desc, ties by id), not within each page only.
    for (let i = 1; i < rows.length; i++) {
      const a = rows[i - 1] as LinkDirectionState;
      const b = rows[i] as LinkDirectionState;
      const ua = a.utilization ?? -1;
      const ub = b.utilization ?? -1;
      expect(ua > ub || (ua === ub && naturalCompare(a.id, b.id) < 0), `${a.id} before ${b.id}`).toBe(true);
    }
  }, 120_000);

  it('filters and sorts before paging: kind=isl by id in pages of 5,000', async () => {
    const isls = fabric.links.filter((l) => l.kind === 'isl').length * 2;
    const pages = await walk(
      built.app,
      `/api/v1/links?kind=isl&sort=id&order=asc&limit=${PAGE_MAX}`,
      PAGE_MAX,
    );
    const ids = pages.flatMap((p) => p.links.map((l) => l.id));
    expect(ids.length).toBe(isls);
    expect(pages.every((p) => p.links.every((l) => l.kind === 'isl'))).toBe(true);
    expect(ids).toEqual([...ids].sort(naturalCompare));
    expect(new Set(pages.map((p) => p.time)).size).toBe(1);
  }, 60_000);

  it('a cursor is refused with the reason when its parameters change (400) or it is not one of ours (400)', async () => {
    const first = (await built.app.inject('/api/v1/links?sort=id&limit=10')).json() as Page;
    const changed = await built.app.inject(`/api/v1/links?sort=utilization&cursor=${first.next}`);
    expect(changed.statusCode).toBe(400);
    expect(changed.json().message).toMatch(/sort=id/);
    // The same parameters repeated are fine.
    const same = await built.app.inject(`/api/v1/links?sort=id&limit=10&cursor=${first.next}`);
    expect(same.statusCode).toBe(200);
    expect(same.json().time).toBe(first.time);
    const forged = await built.app.inject('/api/v1/links?cursor=not-a-cursor');
    expect(forged.statusCode).toBe(400);
    expect(forged.json().message).toMatch(/cursor/);
  });

  it('a limit beyond 5,000 is refused naming the maximum', async () => {
    const res = await built.app.inject(`/api/v1/links?limit=${PAGE_MAX + 1}`);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/5000/);
  });
});

describe('/links without limit at fat-tree-27648', () => {
  let built: Awaited<ReturnType<typeof appOf>>;
  beforeAll(async () => {
    built = await appOf(buildScenario('fat-tree-27648'), 10_000);
    await built.sampler.sample();
  }, 120_000);
  afterAll(async () => built.app.close());

  it('answers at most 5,000 directions and a next cursor, not every direction', async () => {
    const started = performance.now();
    const res = await built.app.inject('/api/v1/links');
    const ms = performance.now() - started;
    expect(res.statusCode).toBe(200);
    const page = res.json() as Page;
    expect(page.links.length).toBeLessThanOrEqual(PAGE_MAX);
    expect(page.links.length).toBe(PAGE_DEFAULT);
    expect(page.total).toBe(165_888);
    expect(page.next).toEqual(expect.any(String));
    // Its speed is the load bench's figure (`npm run bench -- load`), not a wall-clock limit here.
    console.log(`fat-tree-27648: first page of /links in ${ms.toFixed(0)} ms (${res.body.length} bytes)`);
    // Another first page of the same tick and parameters pages the same list, not a new sort.
    for (const sort of ['bytesPerSecond', 'congestion', 'utilization&order=asc']) {
      const t0 = performance.now();
      const other = await built.app.inject(`/api/v1/links?sort=${sort}`);
      console.log(
        `fat-tree-27648: first page of /links?sort=${sort} in ${(performance.now() - t0).toFixed(0)} ms`,
      );
      expect(other.json().links.length).toBe(PAGE_DEFAULT);
    }
    const again = (await built.app.inject('/api/v1/links?limit=20')).json() as Page;
    const second = (await built.app.inject(`/api/v1/links?cursor=${again.next}&limit=20`)).json() as Page;
    expect(second.links.map((l) => l.id)).toEqual(page.links.slice(20, 40).map((l) => l.id));
  }, 60_000);
});
