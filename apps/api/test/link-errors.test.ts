import {
  createFabricRegistry,
  emulatorSource,
  type MetricsServer,
  startMetricsServer,
} from '@fabscope/collectors';
import { createEmulator, type EmulatorServer, startEmulatorServer } from '@fabscope/emulator';
import { buildScenario, fatTreeRouting } from '@fabscope/topology';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryEventLog } from '../src/events/event-log.ts';
import { RecordingEmulatorClient } from '../src/events/recording-emulator.ts';
import { LinkIndex } from '../src/lib/link-index.ts';
import { Sampler } from '../src/sampler.ts';
import { EmbeddedStore } from '../src/store/embedded.ts';
import { buildTestApp } from './helper.ts';

const ISL = 'edge1/4--core2/1';

// The demo's pipeline in one process: emulator → fabric collector → embedded store → API.
describe('errors and PM categories from the emulator to the API', () => {
  const fabric = buildScenario('ar-demo');
  const tables = fatTreeRouting(fabric);
  let emulator: EmulatorServer;
  let collector: MetricsServer;
  let store: EmbeddedStore;
  let sampler: Sampler;
  let app: FastifyInstance;
  const events = new MemoryEventLog();
  const linkIndex = new LinkIndex(fabric);

  beforeAll(async () => {
    emulator = await startEmulatorServer(createEmulator({ fabric, tables, startTimeMs: Date.now() }), {
      tickMs: 20,
      fromDateNow: true,
    });
    collector = await startMetricsServer(
      createFabricRegistry({ source: emulatorSource(emulator.url) }).scrapeChunks,
    );
    store = new EmbeddedStore({ targets: [collector.url], scrapeIntervalMs: 1000, events });
    sampler = new Sampler(store, linkIndex, 1000);
    app = await buildTestApp({
      fabric,
      tables,
      linkIndex,
      store,
      sampler,
      events,
      emulator: new RecordingEmulatorClient(emulator.url, 5000, undefined, events),
    });
  });
  afterAll(async () => {
    await app.close();
    await store.close();
    await collector.close();
    await emulator.close();
  });

  /** One tick of the demo: the store scrapes the collector, the sampler computes. */
  const tick = async () => {
    await store.scrapeOnce();
    await store.timeQueries(linkIndex).settled(); // the history has logged what the scrape saw
    await sampler.sample();
  };
  /** Ticks until `check` passes (rates need real time to build up), at most `ms`. */
  const until = async (check: () => Promise<boolean>, ms = 8000) => {
    const end = Date.now() + ms;
    do await tick();
    while (!(await check()) && Date.now() < end);
  };
  const get = async (url: string) => {
    const res = await app.inject({ method: 'GET', url: `/api/v1${url}` });
    expect(res.statusCode, url).toBe(200);
    return res.json();
  };
  const post = (url: string, payload: object) =>
    app.inject({ method: 'POST', url: `/api/v1${url}`, payload });
  const eventsSince = async (fromMs: number) =>
    (await get(`/events?from=${new Date(fromMs).toISOString()}`)).events as {
      kind: string;
      subject: string;
      detail: string;
      severity: string;
    }[];

  it('1000 symbol errors/s on edge1/4--core2/1: within two ticks it tops sort=integrity, crossed, with an event', async () => {
    const started = Date.now();
    await tick();
    const before = await get('/links?sort=integrity&limit=1');
    expect(before.links[0].categories.integrity).toBe(0);
    const injected = await post('/faults', { type: 'symbol-errors', link: ISL, rate: 1000 });
    expect(injected.statusCode).toBe(200);
    await tick();
    await tick();
    const { links } = await get('/links?sort=integrity&limit=1');
    expect(links).toHaveLength(1);
    expect(links[0].linkId).toBe(ISL);
    expect(links[0].categories.integrity).toBeGreaterThanOrEqual(1);
    // Omni-Path: the link quality fell (PM weight 40 per step below 5 excellent).
    expect(links[0].errors.linkQualityIndicator).toBe(2);
    // The other categories are known and quiet; no counter is unknown on the emulator's Omni-Path.
    expect(links[0].categories).toMatchObject({ security: 0, routing: 0 });
    const summary = await get('/summary');
    expect(summary.categories.integrity.isl[4]).toBe(2); // both directions at ≥ 100 %
    expect(summary.portsWithoutData).toBe(0);
    const crossed = (await eventsSince(started)).filter((e) => e.kind === 'threshold');
    expect(crossed.map((e) => e.subject).sort()).toEqual(['core2/1->edge1/4', 'edge1/4->core2/1']);
    expect(crossed[0]).toMatchObject({
      severity: 'warning',
      detail: expect.stringMatching(/^integrity 1\.20 × threshold/),
    });
  });

  it('a clear from outside fabscope is an unexpected clear (warning) and no spike; one through fabscope is not', async () => {
    const direction = 'core2/1->edge1/4'; // enters edge1/4, whose symbol errors it carries
    const rate = async () =>
      (
        (await get('/links?sort=id&limit=5000')).links as {
          id: string;
          errors: Record<string, number | null>;
        }[]
      ).find((l) => l.id === direction)?.errors.symbolErrors;
    await until(async () => ((await rate()) ?? 0) > 0);
    expect(await rate()).toBeGreaterThan(0);
    // A clear is seen as the counter going below the store's last reading of it. Still counting, it could
    // climb back above that reading before the next scrape on a loaded machine (a slow tick), and no store
    // could see the clear: the errors stop first, so the count stays below whatever the scheduling.
    const symbolErrorsAt = (rate: number) => post('/faults', { type: 'symbol-errors', link: ISL, rate });
    expect((await symbolErrorsAt(0)).statusCode).toBe(200);
    const cleared = Date.now();
    // Another tool clears edge1/4, straight at the fabric (the emulator), not through the API.
    const res = await fetch(`${emulator.url}/v1/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ type: 'clear-counters', node: 'edge1', port: 4 }),
    });
    expect(res.status).toBe(200);
    await tick();
    const after = await rate();
    // The window holding the drop is a gap (null), never a rate made of the whole counter.
    expect(after === null || (after as number) <= 1500).toBe(true);
    const resets = (await eventsSince(cleared)).filter((e) => e.kind === 'counter-reset');
    expect(resets).toEqual([
      expect.objectContaining({
        subject: 'edge1/4',
        severity: 'warning',
        detail: expect.stringMatching(/^unexpected clear/),
      }),
    ]);
    // Through fabscope: the same reset is explained by the fault it logged. First the counter
    // climbs again, so the store reads a value for the clear to go back from; then it stops, as above.
    expect((await symbolErrorsAt(1000)).statusCode).toBe(200);
    const symbolErrors = async () => {
      const doc = (await (await fetch(`${emulator.url}/v1/ports`)).json()) as {
        ports: { nodeName: string; portNumber: number; counters: Record<string, string> }[];
      };
      const port = doc.ports.find((p) => p.nodeName === 'edge1' && p.portNumber === 4);
      return Number(port?.counters.SymbolErrors);
    };
    const deadline = Date.now() + 8000;
    while ((await symbolErrors()) < 2000 && Date.now() < deadline) await tick();
    await tick();
    expect((await symbolErrorsAt(0)).statusCode).toBe(200);
    const asked = Date.now();
    expect((await post('/faults', { type: 'clear-counters', node: 'edge1', port: 4 })).statusCode).toBe(200);
    await tick();
    const explained = (await eventsSince(asked)).filter((e) => e.kind === 'counter-reset');
    expect(explained).toEqual([
      expect.objectContaining({
        subject: 'edge1/4',
        severity: 'info',
        detail: 'counters reset by clear-counters through fabscope',
      }),
    ]);
  });

  it('the other error faults raise their own category: security, routing; link quality and width into integrity', async () => {
    await post('/faults', { type: 'symbol-errors', link: ISL, rate: 0 });
    const isl = 'edge1/3--core1/1';
    for (const body of [
      { type: 'constraint-errors', link: isl, rate: 50 },
      { type: 'switch-relay-errors', link: isl, rate: 500 },
      { type: 'link-width-downgrade', link: 'edge2/3--core1/2', lanes: 1 },
    ]) {
      const res = await post('/faults', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(200);
    }
    const top = async (sort: string) => (await get(`/links?sort=${sort}&limit=1`)).links[0];
    // Both faults' rates span a whole window before either is read (on a loaded machine the second
    // one's first window can still be partial when the first crosses).
    await until(
      async () =>
        (await top('security')).categories.security > 1 && (await top('routing')).categories.routing > 1,
    );
    const security = await top('security');
    expect(security.linkId).toBe(isl);
    expect(security.categories.security).toBeGreaterThan(1); // 50/s against a threshold of 10
    const routing = await top('routing');
    expect(routing.linkId).toBe(isl);
    expect(routing.categories.routing).toBeGreaterThan(1);
    const integrity = await top('integrity');
    expect(integrity.linkId).toBe('edge2/3--core1/2');
    expect(integrity.errors.linkWidthDowngradeLanes).toBe(1);
    expect(integrity.categories.integrity).toBe(1);
  });
});
