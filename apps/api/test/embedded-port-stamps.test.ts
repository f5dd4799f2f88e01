import {
  createFabricRegistry,
  type FabricSnapshot,
  type MetricsServer,
  type PortSample,
  startMetricsServer,
} from '@fabscope/collectors';
import { PORT_ARROW_READ_AT_COLUMN } from '@fabscope/contracts/metrics';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readArrowScrape } from '../src/store/arrow-scrape.ts';
import { EmbeddedStore } from '../src/store/embedded.ts';

const PORTS = 4;
const guidOf = (i: number) => `0x${(0xa0 + i).toString(16).padStart(16, '0')}`;

function port(i: number, bytes: number, readAtMs: number | undefined): PortSample {
  return {
    nodeGuid: guidOf(i),
    nodeName: `n${i}`,
    nodeType: 'switch',
    portNumber: 1,
    lid: i + 1,
    rateBytesPerSecond: 12.5e9,
    linkUp: true,
    remote: null,
    transmitBytes: bytes,
    receiveBytes: bytes,
    transmitPackets: 0,
    receivePackets: 0,
    transmitWaitTicks: 0,
    ...(readAtMs === undefined ? {} : { countersReadAtMs: readAtMs }),
  };
}

/**
 * A collector that reads each port at its own instant (a MAD's round trip; port-sample.ts) stamps each
 * port; the embedded store must rate each port over its own interval, through the text's per-sample
 * timestamps and the Arrow form's `counters_read_at_ms` column alike.
 */
describe('the embedded store rates each port over its own reading interval', () => {
  let snapshot: FabricSnapshot = { fabric: 'f', fabricType: 'infiniband', ports: [] };
  const source = { name: 's', read: async () => snapshot };
  let arrowCollector: MetricsServer;
  let textCollector: MetricsServer;

  beforeAll(async () => {
    arrowCollector = await startMetricsServer(createFabricRegistry({ source }).answer);
    textCollector = await startMetricsServer(createFabricRegistry({ source }).scrapeChunks);
  });
  afterAll(async () => {
    await arrowCollector?.close();
    await textCollector?.close();
  });

  /** Two answers 1 s apart, port i read `lag[k][i]` ms before its answer's stamp; the rates after them. */
  async function ratesOf(
    url: string,
    deltas: readonly number[],
    lags: readonly [readonly (number | undefined)[], readonly (number | undefined)[]],
  ): Promise<{ format: string | undefined; rates: Map<string, number | null | undefined> }> {
    const t0 = Math.floor(Date.now() / 1000) * 1000;
    let now = t0;
    const store = new EmbeddedStore({
      targets: [url],
      scrapeIntervalMs: 1000,
      rateWindowMs: 5000,
      now: () => now,
    });
    try {
      for (const k of [0, 1] as const) {
        now = t0 + k * 1000;
        const lag = lags[k];
        snapshot = {
          fabric: 'f',
          fabricType: 'infiniband',
          countersReadAtMs: now,
          ports: deltas.map((d, i) =>
            port(i, 1e12 + k * d, lag[i] === undefined ? undefined : now - (lag[i] as number)),
          ),
        };
        await store.scrapeOnce();
      }
      const { ports } = await store.rates();
      const rates = new Map(
        deltas.map((_, i) => [guidOf(i), ports.get(`${guidOf(i)}/1`)?.transmitBytesPerSecond]),
      );
      return { format: store.stats().targets[0]?.format, rates };
    } finally {
      await store.close();
    }
  }

  it('gives each port Δcounter over its own Δt, from Arrow and from text', async () => {
    // Port 0 read at both answers' stamps (1 s apart); port 1 200 ms before the first (1.2 s);
    // port 2 500 ms before the second (0.5 s). One stamp for all would give each 1 s.
    const deltas = [1e9, 1e9, 1e9];
    const lags: [number[], number[]] = [
      [0, 200, 0],
      [0, 0, 500],
    ];
    for (const [url, format] of [
      [arrowCollector.url, 'arrow'],
      [textCollector.url, 'text'],
    ] as const) {
      const { format: read, rates } = await ratesOf(url, deltas, lags);
      expect(read).toBe(format);
      expect(rates.get(guidOf(0)), format).toBeCloseTo(1e9, 0);
      expect(rates.get(guidOf(1)), format).toBeCloseTo(1e9 / 1.2, 0);
      expect(rates.get(guidOf(2)), format).toBeCloseTo(2e9, 0);
    }
  });

  it('holds for any per-port lags and deltas, through both formats', async () => {
    const lag = fc.array(fc.integer({ min: 0, max: 400 }), { minLength: PORTS, maxLength: PORTS });
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.integer({ min: 0, max: 2e9 }), { minLength: PORTS, maxLength: PORTS }),
        lag,
        lag,
        async (deltas, before, after) => {
          const [arrow, text] = [
            await ratesOf(arrowCollector.url, deltas, [before, after]),
            await ratesOf(textCollector.url, deltas, [before, after]),
          ];
          expect([arrow.format, text.format]).toEqual(['arrow', 'text']);
          deltas.forEach((d, i) => {
            const seconds = (1000 - (after[i] as number) + (before[i] as number)) / 1000;
            expect(arrow.rates.get(guidOf(i))).toBeCloseTo(d / seconds, 0);
            expect(text.rates.get(guidOf(i))).toBeCloseTo(d / seconds, 0);
          });
        },
      ),
      { numRuns: 10 },
    );
  });

  it('takes the answer stamp for a port the Arrow column leaves NaN, or without the column', async () => {
    const lags: [(number | undefined)[], (number | undefined)[]] = [
      [0, undefined],
      [300, undefined],
    ];
    const { rates } = await ratesOf(arrowCollector.url, [1e9, 1e9], lags);
    expect(rates.get(guidOf(0))).toBeCloseTo(1e9 / 0.7, 0);
    expect(rates.get(guidOf(1))).toBeCloseTo(1e9, 0);
    // An older collector (no port stamped) sends no column; the answer's stamp stands for every port.
    const bytes = await arrowBytes();
    expect(readArrowScrape(bytes).portReadAtMs).toBeNull();
  });

  async function arrowBytes(): Promise<Uint8Array> {
    snapshot = {
      fabric: 'f',
      fabricType: 'infiniband',
      countersReadAtMs: Date.now(),
      ports: [port(0, 0, undefined)],
    };
    const response = await fetch(`${arrowCollector.url}?name[]=fabscope_port_data_transmitted_bytes_total`, {
      headers: { accept: 'application/vnd.apache.arrow.stream' },
    });
    const bytes = new Uint8Array(await response.arrayBuffer());
    expect(new TextDecoder('latin1').decode(bytes)).not.toContain(PORT_ARROW_READ_AT_COLUMN);
    return bytes;
  }
});
