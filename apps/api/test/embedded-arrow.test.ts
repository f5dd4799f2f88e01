import type { FabricSnapshot } from '@fabscope/collectors';
import {
  createFabricRegistry,
  emulatorSource,
  type MetricsServer,
  sharedSource,
  startMetricsServer,
} from '@fabscope/collectors';
import { createEmulator, type EmulatorServer, startEmulatorServer } from '@fabscope/emulator';
import { buildScenario, fatTreeRouting } from '@fabscope/topology';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { readArrowScrape } from '../src/store/arrow-scrape.ts';
import { EmbeddedStore } from '../src/store/embedded.ts';

const ISL = 'edge1/4--core2/1';

/**
 * The embedded store reads a fabscope collector's port families as Arrow columns where the
 * collector offers them (arrow-scrape.ts); what it computes must be what the text gives. Two
 * collectors over one shared read of the real emulator: one serves Arrow, one text only.
 */
describe('the embedded store over the Arrow form', () => {
  const fabric = buildScenario('ar-demo');
  let emulator: EmulatorServer;
  let arrowCollector: MetricsServer;
  let textCollector: MetricsServer;
  let arrowStore: EmbeddedStore;
  let textStore: EmbeddedStore;

  beforeAll(async () => {
    // The emulator's clock, the shared read and the stores' stamps follow a clock the test moves.
    vi.useFakeTimers({ toFake: ['Date', 'performance'] });
    const model = createEmulator({ fabric, tables: fatTreeRouting(fabric), startTimeMs: Date.now() });
    emulator = await startEmulatorServer(model, { tickMs: 20, fromDateNow: true });
    model.startFlows({ pattern: 'permutation' });
    model.injectFault({ type: 'symbol-errors', link: ISL, rate: 1000 });
    // One read of the emulator within 0.5 s serves both collectors: the same counters.
    const source = sharedSource(emulatorSource(emulator.url), 500);
    arrowCollector = await startMetricsServer(createFabricRegistry({ source }).answer);
    textCollector = await startMetricsServer(createFabricRegistry({ source }).scrapeChunks);
    const options = { scrapeIntervalMs: 1000, errorIntervalMs: 0, rateWindowMs: 60_000 };
    arrowStore = new EmbeddedStore({ ...options, targets: [arrowCollector.url] });
    textStore = new EmbeddedStore({ ...options, targets: [textCollector.url] });
  });
  afterAll(async () => {
    await arrowStore?.close();
    await textStore?.close();
    await arrowCollector?.close();
    await textCollector?.close();
    await emulator?.close();
    vi.useRealTimers();
  });

  const scrapeBoth = () => Promise.all([arrowStore.scrapeOnce(), textStore.scrapeOnce()]);

  it('reads Arrow from a fabscope collector and gives the rates the text gives', async () => {
    await scrapeBoth();
    vi.advanceTimersByTime(1100);
    await scrapeBoth();
    expect(arrowStore.stats().targets[0]?.format).toBe('arrow');
    expect(textStore.stats().targets[0]?.format).toBe('text');
    expect(arrowStore.stats().targets[0]?.error).toBeUndefined();
    const [arrow, text] = await Promise.all([arrowStore.rates(), textStore.rates()]);
    expect(arrow.ports.size).toBeGreaterThan(0);
    expect([...arrow.ports.keys()].sort()).toEqual([...text.ports.keys()].sort());
    for (const [key, port] of arrow.ports) expect(port, key).toEqual(text.ports.get(key));
    // Not vacuous: traffic and the injected symbol errors are in what both read.
    const ports = [...arrow.ports.values()];
    expect(ports.some((p) => (p.transmitBytesPerSecond ?? 0) > 0)).toBe(true);
    expect(ports.some((p) => (p.errors?.symbolErrors ?? 0) > 0)).toBe(true);
    expect(ports.some((p) => p.linkUp === true)).toBe(true);
    expect(ports.some((p) => p.transmitWaitTickSeconds !== null)).toBe(true);
  });

  it('asks for Arrow and is answered text by a collector that does not offer it', async () => {
    const store = new EmbeddedStore({ targets: [textCollector.url], scrapeIntervalMs: 1000 });
    try {
      await store.scrapeOnce();
      expect(store.stats().targets[0]).toMatchObject({ format: 'text' });
      expect(store.stats().ports).toBeGreaterThan(0);
    } finally {
      await store.close();
    }
  });

  it('refuses an Arrow answer cut short, naming it, and keeps nothing of it', async () => {
    const response = await fetch(`${arrowCollector.url}?name[]=fabscope_port_data_transmitted_bytes_total`, {
      headers: { accept: 'application/vnd.apache.arrow.stream' },
    });
    expect(response.headers.get('content-type')).toBe('application/vnd.apache.arrow.stream');
    const bytes = new Uint8Array(await response.arrayBuffer());
    const whole = readArrowScrape(bytes);
    expect(whole.rows).toBeGreaterThan(0);
    expect(whole.families.get('fabscope_port_data_transmitted_bytes_total')?.length).toBe(whole.rows);
    for (const cut of [bytes.byteLength - 1, bytes.byteLength - 8, Math.floor(bytes.byteLength / 2), 100]) {
      expect(() => readArrowScrape(bytes.subarray(0, cut))).toThrow(/cut short|unreadable/);
    }
    // A whole stream whose record batch is gone: the row count in its metadata tells.
    const store = new EmbeddedStore({
      targets: ['http://collector.invalid/metrics'],
      scrapeIntervalMs: 1000,
      fetch: async () =>
        new Response(bytes.subarray(0, Math.floor(bytes.byteLength / 2)), {
          headers: { 'content-type': 'application/vnd.apache.arrow.stream' },
        }),
    });
    try {
      await store.scrapeOnce();
      expect(store.stats().targets[0]?.error).toMatch(/cut short|unreadable/);
      expect(store.stats().ports).toBe(0);
    } finally {
      await store.close();
    }
  });

  it('follows a collector whose ports moved between two answers (rows in another order)', async () => {
    const port = (guid: string, bytes: number) => ({
      nodeGuid: guid,
      nodeName: guid,
      nodeType: 'switch' as const,
      portNumber: 1,
      lid: 1,
      rateBytesPerSecond: 12.5e9,
      linkUp: true,
      remote: null,
      transmitBytes: bytes,
      receiveBytes: bytes,
      transmitPackets: 0,
      receivePackets: 0,
      transmitWaitTicks: 0,
    });
    const a = '0x00000000000000aa';
    const b = '0x00000000000000bb';
    const t0 = Date.now();
    const reads: FabricSnapshot[] = [
      { fabric: 'f', fabricType: 'infiniband', countersReadAtMs: t0, ports: [port(a, 0), port(b, 0)] },
      // One second on: a sent 1 GB, b 3 GB, listed the other way round.
      {
        fabric: 'f',
        fabricType: 'infiniband',
        countersReadAtMs: t0 + 1000,
        ports: [port(b, 3e9), port(a, 1e9)],
      },
    ];
    let i = 0;
    const collector = await startMetricsServer(
      createFabricRegistry({ source: { name: 's', read: async () => reads[i] as FabricSnapshot } }).answer,
    );
    let now = t0;
    const store = new EmbeddedStore({
      targets: [collector.url],
      scrapeIntervalMs: 1000,
      rateWindowMs: 5000,
      now: () => now,
    });
    try {
      await store.scrapeOnce();
      i = 1;
      now = t0 + 1000;
      await store.scrapeOnce();
      expect(store.stats().targets[0]?.format).toBe('arrow');
      const rates = await store.rates();
      expect(rates.ports.get(`${a}/1`)?.transmitBytesPerSecond).toBeCloseTo(1e9, 0);
      expect(rates.ports.get(`${b}/1`)?.transmitBytesPerSecond).toBeCloseTo(3e9, 0);
    } finally {
      await store.close();
      await collector.close();
    }
  });
});
