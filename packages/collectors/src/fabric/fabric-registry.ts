import { ARROW_STREAM_MEDIA_TYPE } from '@fabscope/contracts/media-types';
import type { PmThresholdConfig } from '@fabscope/topology';
import { Registry } from 'prom-client';
import { ChunkWriter } from '../exposition/chunk-writer.ts';
import { edgeExpositionChunks } from '../exposition/edge-exposition.ts';
import { arrowFamilies, PortArrowEncoder } from '../exposition/port-arrow.ts';
import { PORT_FAMILIES, PortLabels, writePortFamilies } from '../exposition/port-exposition.ts';
import type { BinaryAnswer, ScrapeRequest } from '../metrics-server.ts';
import { EdgeRates, type EdgeSweep } from './edge-rates.ts';
import type { FabricSnapshot, FabricSource, PortSample } from './port-sample.ts';
import { type Shard, shardOfPort } from './shard.ts';
import { sourceHealth } from './source-health.ts';

export interface FabricCollectorOptions {
  source: FabricSource;
  timeoutMs?: number;
  /** Expose only this shard's switch group (`collect fabric --shard K/N`); all ports by default. */
  shard?: Shard | undefined;
  /** Whether an unfiltered scrape carries the raw counters beside the edge rates; `auto`: up to RAW_COUNTERS_AUTO_PORTS ports. */
  rawCounters?: boolean | 'auto' | undefined;
  /** Thresholds and weights of the PM categories the edge writes (opafm's defaults). */
  pmThresholds?: PmThresholdConfig | undefined;
}

/** `rawCounters: 'auto'`: the raw counters are on up to this many ports in a read. */
export const RAW_COUNTERS_AUTO_PORTS = 20_000;

/** When a read whose source did not stamp it happened: the first collector to see it decides (shards share reads). */
const readTimes = new WeakMap<FabricSnapshot, number>();

export interface FabricRegistry {
  /** The agent's own series (source and per-target health); port series are written by hand. */
  registry: Registry;
  /** Reads the source now and returns the whole exposition (or the families named in `request`). */
  scrape: (request?: ScrapeRequest) => Promise<string>;
  /** The same, in chunks of bytes and text, for fabrics too large for one string (100k+ ports). */
  scrapeChunks: (request?: ScrapeRequest) => Promise<Iterable<string | Uint8Array>>;
  /** What `/metrics` serves: the chunks, or the port families named as one Arrow IPC stream to a scraper that takes it. */
  answer: (request?: ScrapeRequest) => Promise<Iterable<string | Uint8Array> | BinaryAnswer>;
}

/** Reads the source in each scrape (a sweep); a failed read leaves the port series absent, source_up 0. */
export function createFabricRegistry(options: FabricCollectorOptions): FabricRegistry {
  const { source, timeoutMs = 10_000 } = options;
  const registry = new Registry();
  const health = sourceHealth(registry, source.name);
  /** Node GUID → type, kept across scrapes (port-exposition.ts `remote_node_type`). */
  const nodeTypes = new Map<string, string>();

  const edge = new EdgeRates();
  // Reads not yet folded into the edge rates, oldest first (a third is a missed sweep): only a scrape
  // that writes the edge rates folds them, so an Arrow-only reader never pays for them.
  const unfolded: { snapshot: FabricSnapshot; readAt: number }[] = [];
  const shard = options.shard;
  const shardFilter =
    shard && shard.count > 1 ? (p: PortSample) => shardOfPort(p, shard.count) === shard.index : undefined;

  function foldReads(): EdgeSweep | null {
    let sweep: EdgeSweep | null = null;
    for (const { snapshot, readAt } of unfolded.splice(0)) sweep = edge.update(snapshot, readAt, shardFilter);
    return sweep;
  }

  async function read(): Promise<{ snapshot: FabricSnapshot; sweep: () => EdgeSweep } | null> {
    const started = performance.now();
    const startedMs = Date.now();
    let snapshot: FabricSnapshot | null = null;
    let readAt = startedMs;
    try {
      snapshot = await source.read(AbortSignal.timeout(timeoutMs));
      health.readSucceeded();
      // The sweep's time: the source's stamp, else the middle of the read.
      const stamped = snapshot.countersReadAtMs ?? readTimes.get(snapshot);
      readAt = stamped ?? Math.round((startedMs + Date.now()) / 2);
      if (stamped === undefined) readTimes.set(snapshot, readAt);
      // The same read again (shards sharing one, a second scrape of it) is the same sweep.
      const newest = unfolded[unfolded.length - 1];
      if (newest?.snapshot !== snapshot) {
        unfolded.push({ snapshot, readAt });
        if (unfolded.length > 2) {
          unfolded.shift();
          edge.miss();
        }
      }
    } catch {
      health.readFailed();
      // Every port missed this sweep: the next one's rates are a gap, never a rate over two.
      foldReads();
      edge.miss();
    }
    health.readDone((performance.now() - started) / 1000, snapshot);
    if (!snapshot) return null;
    const read = snapshot;
    // Folded already (by a scrape of the same read): update answers the sweep it made of it.
    return { snapshot: read, sweep: () => foldReads() ?? edge.update(read, readAt, shardFilter) };
  }

  /** The agent's own series, or those of them named. */
  async function ownMetrics(names: ReadonlySet<string> | undefined): Promise<string> {
    if (!names) return registry.metrics();
    let text = '';
    for (const name of names) {
      if (registry.getSingleMetric(name)) text += `${await registry.getSingleMetricAsString(name)}\n`;
    }
    return text;
  }

  /** The raw port families a scrape writes: those named, else all or all but the raw counters. */
  function rawFamilies(names: ReadonlySet<string> | undefined, ports: number) {
    if (names) return PORT_FAMILIES.filter((f) => names.has(f.name));
    const raw = options.rawCounters ?? 'auto';
    const on = raw === 'auto' ? ports <= RAW_COUNTERS_AUTO_PORTS : raw;
    return on ? PORT_FAMILIES : PORT_FAMILIES.filter((f) => !f.raw);
  }

  async function scrapeChunks(request: ScrapeRequest = {}): Promise<Iterable<string | Uint8Array>> {
    const reading = await read();
    const own = await ownMetrics(request.names);
    function* all(): Generator<string | Uint8Array> {
      if (reading) {
        const { snapshot } = reading;
        const sweep = reading.sweep();
        const labels = new PortLabels(snapshot, options.shard, nodeTypes);
        const out = new ChunkWriter();
        yield* writePortFamilies(labels, rawFamilies(request.names, snapshot.ports.length), out);
        yield* edgeExpositionChunks(sweep, edge, labels, out, request.names, options.pmThresholds);
        yield* out.end();
      }
      yield own;
    }
    return all();
  }

  const arrow = new PortArrowEncoder();

  async function answer(request: ScrapeRequest = {}): Promise<Iterable<string | Uint8Array> | BinaryAnswer> {
    const families = request.arrow ? arrowFamilies(request.names) : null;
    if (!families) return scrapeChunks(request);
    const reading = await read();
    // A failed read: no rows, as the text has no port series then (they go stale).
    const snapshot = reading?.snapshot ?? { fabric: '', fabricType: '', ports: [] };
    const labels = new PortLabels(snapshot, options.shard, nodeTypes);
    return { mediaType: ARROW_STREAM_MEDIA_TYPE, body: arrow.encode(labels, families) };
  }

  async function scrape(request: ScrapeRequest = {}): Promise<string> {
    const chunks = [...(await scrapeChunks(request))];
    return Buffer.concat(chunks.map((c) => (typeof c === 'string' ? Buffer.from(c) : c))).toString('utf8');
  }

  return { registry, scrape, scrapeChunks, answer };
}
