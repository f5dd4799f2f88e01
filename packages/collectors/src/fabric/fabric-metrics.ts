import { ARROW_STREAM_MEDIA_TYPE } from '@fabscope/contracts/media-types';
import { SOURCE_SERIES } from '@fabscope/contracts/metrics';
import type { PmThresholdConfig } from '@fabscope/topology';
import { Counter, Gauge, Registry } from 'prom-client';
import type { BinaryAnswer, ScrapeRequest } from '../metrics-server.ts';
import { ChunkWriter } from './chunk-writer.ts';
import { edgeExpositionChunks } from './edge-exposition.ts';
import { EdgeRates, type EdgeSweep } from './edge-rates.ts';
import { arrowFamilies, PortArrowEncoder } from './port-arrow.ts';
import { PORT_FAMILIES, PortLabels, writePortFamilies } from './port-exposition.ts';
import type { FabricSnapshot, FabricSource, PortSample } from './port-sample.ts';
import { type Shard, shardOfPort } from './shard.ts';

export interface FabricCollectorOptions {
  source: FabricSource;
  timeoutMs?: number;
  /** Expose only this shard's switch group (`collect fabric --shard K/N`); all ports by default. */
  shard?: Shard | undefined;
  /**
   * Whether an unfiltered scrape carries the raw counters (and the gauges that only serve to rate
   * them) beside the rates at the edge: `auto` (default) up to RAW_COUNTERS_AUTO_PORTS ports of the
   * read, off beyond. A scrape naming families (`name[]`) gets what it names either way.
   */
  rawCounters?: boolean | 'auto' | undefined;
  /** Thresholds and weights of the PM categories the edge writes (opafm's defaults). */
  pmThresholds?: PmThresholdConfig | undefined;
}

/** `rawCounters: 'auto'`: the raw counters are on up to this many ports in a read (fat-tree-1152 has 4,608). */
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
  /**
   * What `/metrics` serves (startMetricsServer): the chunks, or — to a scraper that takes Arrow and
   * names only port families (the embedded store) — those families as one Arrow IPC stream.
   */
  answer: (request?: ScrapeRequest) => Promise<Iterable<string | Uint8Array> | BinaryAnswer>;
}

/**
 * The fabric agent's registry. The source is read once per scrape, inside the scrape (a sweep);
 * the collector keeps each port's previous reading and exposes the rates between the two (its
 * rates at the edge, edge-exposition.ts) and, where asked or small enough, the raw monotonic
 * totals in bytes and packets.
 * When the source fails, port series are absent (so they go stale) and `fabscope_fabric_source_up` is 0.
 * Sources that query many targets (switches, ports) also report each target's duration and
 * errors/timeouts; the ports of a failed target are absent while the others are exposed.
 */
export function createFabricRegistry(options: FabricCollectorOptions): FabricRegistry {
  const { source, timeoutMs = 10_000 } = options;
  const registry = new Registry();
  const sourceUp = new Gauge({
    name: SOURCE_SERIES.up,
    help: '1 when the last read of the fabric source succeeded',
    labelNames: ['source'],
    registers: [registry],
  });
  const duration = new Gauge({
    name: SOURCE_SERIES.readDuration,
    help: 'Time the last read of the fabric source took',
    labelNames: ['source'],
    registers: [registry],
  });
  const errors = new Counter({
    name: SOURCE_SERIES.errors,
    help: 'Failed reads of the fabric source',
    labelNames: ['source'],
    registers: [registry],
  });
  errors.inc({ source: source.name }, 0);
  const targetUp = new Gauge({
    name: 'fabscope_fabric_target_up',
    help: '1 when the last query of this target (switch or port) succeeded',
    labelNames: ['source', 'target'],
    registers: [registry],
  });
  const targetDuration = new Gauge({
    name: 'fabscope_fabric_target_collect_duration_seconds',
    help: 'Time the last query of this target took',
    labelNames: ['source', 'target'],
    registers: [registry],
  });
  const targetErrors = new Counter({
    name: 'fabscope_fabric_target_errors_total',
    help: 'Queries of this target that failed',
    labelNames: ['source', 'target'],
    registers: [registry],
  });
  const targetTimeouts = new Counter({
    name: 'fabscope_fabric_target_timeouts_total',
    help: 'Queries of this target that timed out',
    labelNames: ['source', 'target'],
    registers: [registry],
  });

  /** Node GUID → type, kept across scrapes (port-exposition.ts `remote_node_type`). */
  const nodeTypes = new Map<string, string>();

  const madsSent = new Counter({
    name: 'fabscope_fabric_mads_sent_total',
    help: 'Management datagrams sent to read the fabric (InfiniBand: PortInfo, PortCounters, PortCountersExtended)',
    labelNames: ['source'],
    registers: [registry],
  });
  const madRetries = new Counter({
    name: 'fabscope_fabric_mad_retries_total',
    help: 'MADs sent again after no answer within the timeout (what perfquery reports as "_do_madrpc: recv failed")',
    labelNames: ['source'],
    registers: [registry],
  });
  const portsUnread = new Gauge({
    name: 'fabscope_fabric_ports_unread',
    help: 'Ports of the last read with an attribute that did not answer after every retry (their counters are absent, not 0)',
    labelNames: ['source'],
    registers: [registry],
  });

  const edge = new EdgeRates();
  /**
   * Reads not yet folded into the edge rates, oldest first (at most two: an older one counts as a
   * missed sweep). A scrape that writes the rates at the edge folds them in order; one that does
   * not (the embedded store's Arrow scrape) leaves them, so a collector only the embedded store
   * reads never computes rates nobody asks for (at fat-tree-27648 a quarter of its CPU), while one
   * Prometheus scrapes too still rates each read against the one before it.
   */
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
      sourceUp.set({ source: source.name }, 1);
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
      sourceUp.set({ source: source.name }, 0);
      errors.inc({ source: source.name });
      // Every port missed this sweep: the next one's rates are a gap, never a rate over two.
      foldReads();
      edge.miss();
    }
    duration.set({ source: source.name }, (performance.now() - started) / 1000);
    if (snapshot?.mads) {
      madsSent.inc({ source: source.name }, snapshot.mads.sent);
      madRetries.inc({ source: source.name }, snapshot.mads.retries);
      portsUnread.set({ source: source.name }, snapshot.mads.failedPorts);
    }
    targetUp.reset();
    targetDuration.reset();
    for (const t of snapshot?.targets ?? []) {
      const labels = { source: source.name, target: t.target };
      targetUp.set(labels, t.outcome === 'ok' ? 1 : 0);
      targetDuration.set(labels, t.durationSeconds);
      targetErrors.inc(labels, t.outcome === 'error' ? 1 : 0);
      targetTimeouts.inc(labels, t.outcome === 'timeout' ? 1 : 0);
    }
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
    const decoder = new TextDecoder();
    let text = '';
    for (const chunk of await scrapeChunks(request)) {
      text += typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true });
    }
    return text + decoder.decode();
  }

  return { registry, scrape, scrapeChunks, answer };
}
