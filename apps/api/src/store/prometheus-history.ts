import { EDGE_SERIES } from '@fabscope/contracts/metrics';
import type { FabricEvent } from '../lib/fabric-event.ts';
import { type LinkFrame, statesOf } from '../lib/frame.ts';
import { frameOf } from '../lib/frame-from-rates.ts';
import type { LinkIndex } from '../lib/link-index.ts';
import type { FabricSummary } from '../lib/summary.ts';
import { rangeTimes, type TimeRange } from '../lib/time-params.ts';
import { prometheusColumns } from './prometheus-columns.ts';
import { seriesEvents } from './prometheus-events.ts';
import { byPort, EdgeLive, held } from './prometheus-live.ts';
import { labelValue, type PromqlClient, sampleValue } from './promql-client.ts';
import {
  type FabricAt,
  type LinkColumn,
  type LinkSeries,
  linkPoint,
  type SummaryPoint,
  type TimeQueries,
} from './time-queries.ts';

export { EDGE_SERIES };

const tenZeros = () => new Array<number>(10).fill(0);

/**
 * Per instant, the ten bucket counts of one kind (`isl` or `host`) from the collectors' bucket series (`countsOf`: a
 * series' count per instant); null where no bucket had a point.
 */
function bucketsAt<S extends { metric: Record<string, string> }>(
  series: readonly S[],
  kind: 'isl' | 'host',
  instants: number,
  countsOf: (s: S) => (number | null)[],
): (number[] | null)[] {
  const at: (number[] | null)[] = new Array(instants).fill(null);
  for (const s of series) {
    const bucket = Number(s.metric.bucket);
    if (s.metric.kind !== kind || !Number.isInteger(bucket) || bucket < 0 || bucket > 9) continue;
    countsOf(s).forEach((count, i) => {
      if (count === null) return;
      const counts = at[i] ?? tenZeros();
      counts[bucket] = count;
      at[i] = counts;
    });
  }
  return at;
}

/** From this many directions on, linkRange asks per sending port number and group of nodes (linkRangeByPort). */
const BATCH_FROM = 16;
/** Most node GUIDs in one query's regex. */
const NODES_PER_QUERY = 200;

/** `text` matched literally in a PromQL regex (RE2). */
const regexLiteral = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Past frames held at once (each a big fabric's columns). */
const HELD_FRAMES = 4;
/** A frame read is held at least this long (the scrape interval when longer). */
const HELD_FRAME_MIN_MS = 5000;

export interface PrometheusHistoryOptions {
  /** Prometheus' scrape interval: the default step. */
  scrapeIntervalMs: number;
  /** Data older than this is stale (the store's staleness policy): how far back an instant looks. */
  staleAfterSeconds?: number;
}

/**
 * Time questions answered by Prometheus (or VictoriaMetrics) from the collector's per-direction series (edge rates):
 * the TSDB sums and ranks (sum, topk); the API only names directions and maps them to the topology.
 */
export class PrometheusTimeQueries implements TimeQueries {
  readonly resolutionMs: number;
  /** A direction by its sending port's key (every cabled port sends one): the key of the recorded series. */
  private readonly bySender: ReadonlyMap<string, LinkIndex['channels'][number]>;
  /** Node names by GUID, for events' subjects. */
  private readonly nameOfGuid = new Map<string, string>();
  /** The lookback of an instant, in ms (the staleness limit). */
  private readonly heldMs: number;
  /** The live tick's queries, asked at a past instant: a frame as the live view had it. */
  private readonly edge: EdgeLive;
  /**
   * Frames asked lately, by instant: `/instant`, `/links?time=` and its pages at one instant read the TSDB once between
   * them (a big fabric's frame is seconds of dense reads).
   */
  private readonly frames = new Map<number, { frame: Promise<LinkFrame>; untilMs: number }>();

  constructor(
    private readonly client: PromqlClient,
    private readonly index: LinkIndex,
    options: PrometheusHistoryOptions,
  ) {
    this.resolutionMs = options.scrapeIntervalMs;
    this.heldMs = Math.max(1, Math.round((options.staleAfterSeconds ?? 5) * 1000));
    this.edge = new EdgeLive(client, this.heldMs / 1000);
    this.bySender = new Map(index.channels.map((ch) => [ch.fromKey, ch]));
    for (const [name, node] of index.fabric.nodeByName) this.nameOfGuid.set(node.guid, name);
  }

  /**
   * Every direction at `timeMs`: the live tick's queries (prometheus-live.ts) evaluated at that instant, made into a
   * frame with the one formula, as the live view made it then.
   */
  frameAt(timeMs: number, signal?: AbortSignal): Promise<LinkFrame> {
    const nowMs = Date.now();
    for (const [t, held] of this.frames) if (held.untilMs < nowMs) this.frames.delete(t);
    const held = this.frames.get(timeMs);
    if (held) return held.frame;
    const frame = this.edge
      .rates(signal, timeMs)
      .then((rates) => frameOf(this.index, { timeMs, ok: true, ...rates }));
    const entry = { frame, untilMs: Number.POSITIVE_INFINITY };
    this.frames.set(timeMs, entry);
    while (this.frames.size > HELD_FRAMES) this.frames.delete(this.frames.keys().next().value as number);
    frame.then(
      () => {
        entry.untilMs = Date.now() + Math.max(this.resolutionMs, HELD_FRAME_MIN_MS);
      },
      () => {
        if (this.frames.get(timeMs) === entry) this.frames.delete(timeMs);
      },
    );
    return frame;
  }

  async linksAt(timeMs: number, signal?: AbortSignal): Promise<FabricAt> {
    return { timeMs, links: statesOf(await this.frameAt(timeMs, signal)) };
  }

  /**
   * The summary from the collectors' own (a few series each, stamped with their sweep's time): the host total and the
   * utilization buckets of the directions each counts, summed over them.
   */
  private summaryQueries() {
    const { hostBytes, directions: buckets } = EDGE_SERIES;
    return {
      host: `sum(${held(hostBytes, this.heldMs)})`,
      buckets: `sum by (kind, bucket) (${held(buckets, this.heldMs)})`,
    };
  }

  async summaryAt(timeMs: number, signal?: AbortSignal): Promise<FabricSummary> {
    const q = this.summaryQueries();
    // Two short answers (the collectors' sums): no category histograms, which need every
    // direction's series (`/instant` adds them from its frame).
    const [host, buckets] = await Promise.all([
      this.client.query(q.host, timeMs, signal),
      this.client.query(q.buckets, timeMs, signal),
    ]);
    const counts = (kind: 'isl' | 'host') =>
      bucketsAt(buckets, kind, 1, (s) => [sampleValue(s.value[1])])[0] ?? tenZeros();
    const isl = counts('isl');
    const hostLinks = counts('host');
    // Every direction with a value is in one bucket: their sum is the known count.
    const knownCount = [...isl, ...hostLinks].reduce((a, b) => a + b, 0);
    return {
      time: new Date(timeMs).toISOString(),
      hostTransmitBytesPerSecond: host[0] ? sampleValue(host[0].value[1]) : null,
      histogram: { isl, host: hostLinks },
      staleLinks: Math.max(0, this.index.channels.length - knownCount),
    };
  }

  async summaryRange(range: TimeRange, signal?: AbortSignal): Promise<SummaryPoint[]> {
    const q = this.summaryQueries();
    const { fromMs, toMs, stepMs } = range;
    const [host, buckets] = await Promise.all([
      this.client.queryRange(q.host, fromMs, toMs, stepMs, signal),
      this.client.queryRange(q.buckets, fromMs, toMs, stepMs, signal),
    ]);
    const times = rangeTimes(range);
    const hostAt = alignPoints(host[0]?.values, times, stepMs);
    const countsAt = (kind: 'isl' | 'host') =>
      bucketsAt(buckets, kind, times.length, (s) => alignPoints(s.values, times, stepMs));
    const islAt = countsAt('isl');
    const hostLinksAt = countsAt('host');
    return times.map((timeMs, i) => {
      const isl = islAt[i] ?? null;
      const hostLinks = hostLinksAt[i] ?? null;
      return {
        timeMs,
        hostTransmitBytesPerSecond: hostAt[i] ?? null,
        histogram: isl || hostLinks ? { isl: isl ?? tenZeros(), host: hostLinks ?? tenZeros() } : null,
      };
    });
  }

  async linkRange(ids: readonly string[], range: TimeRange, signal?: AbortSignal): Promise<LinkSeries[]> {
    if (ids.length >= BATCH_FROM) return this.linkRangeByPort(ids, range, signal);
    const { fromMs, toMs, stepMs } = range;
    const times = rangeTimes(range);
    return Promise.all(
      ids.map(async (id): Promise<LinkSeries> => {
        const channel = this.index.channelById.get(id);
        if (!channel) return { id, points: times.map((timeMs) => linkPoint(timeMs, null, 0, null)) };
        const { from, capacityBytesPerSecond } = channel.fixed;
        const guid = this.index.fabric.nodeByName.get(from.node)?.guid ?? '';
        // A direction's series is keyed by its sending port.
        const direction = `{node_guid="${labelValue(guid)}",port="${from.port}"}`;
        const [bytesAt, waitAt] = await Promise.all(
          [EDGE_SERIES.bytes, EDGE_SERIES.wait].map(async (name) => {
            const query = byPort(held(`${name}${direction}`, this.heldMs));
            const [series] = await this.client.queryRange(query, fromMs, toMs, stepMs, signal);
            return alignPoints(series?.values, times, stepMs);
          }),
        );
        return {
          id,
          points: times.map((timeMs, i) =>
            linkPoint(timeMs, bytesAt?.[i] ?? null, capacityBytesPerSecond, waitAt?.[i] ?? null),
          ),
        };
      }),
    );
  }

  /**
   * Many directions (a job's report) in a query per sending port number and group of nodes, the same series as one
   * direction's queries: two queries per direction would be thousands through the client's few in flight.
   */
  private async linkRangeByPort(
    ids: readonly string[],
    range: TimeRange,
    signal?: AbortSignal,
  ): Promise<LinkSeries[]> {
    const { fromMs, toMs, stepMs } = range;
    const times = rangeTimes(range);
    const guidsOfPort = new Map<number, Set<string>>();
    for (const id of ids) {
      const from = this.index.channelById.get(id)?.fixed.from;
      const guid = from && this.index.fabric.nodeByName.get(from.node)?.guid;
      if (!from || guid === undefined) continue;
      const guids = guidsOfPort.get(from.port) ?? new Set<string>();
      guidsOfPort.set(from.port, guids.add(guid));
    }
    const aligned = new Map<string, (number | null)[]>();
    const asks: Promise<void>[] = [];
    for (const [port, guids] of guidsOfPort) {
      const all = [...guids];
      for (let i = 0; i < all.length; i += NODES_PER_QUERY) {
        const regex = all
          .slice(i, i + NODES_PER_QUERY)
          .map(regexLiteral)
          .join('|');
        const selector = `{node_guid=~"${labelValue(regex)}",port="${port}"}`;
        for (const name of [EDGE_SERIES.bytes, EDGE_SERIES.wait]) {
          const query = byPort(held(`${name}${selector}`, this.heldMs));
          asks.push(
            this.client.queryRange(query, fromMs, toMs, stepMs, signal).then((series) => {
              for (const s of series)
                aligned.set(
                  `${name} ${s.metric.node_guid}/${s.metric.port}`,
                  alignPoints(s.values, times, stepMs),
                );
            }),
          );
        }
      }
    }
    await Promise.all(asks);
    return ids.map((id) => {
      const fixed = this.index.channelById.get(id)?.fixed;
      const guid = fixed && this.index.fabric.nodeByName.get(fixed.from.node)?.guid;
      const key = `${guid}/${fixed?.from.port}`;
      const bytesAt = aligned.get(`${EDGE_SERIES.bytes} ${key}`);
      const waitAt = aligned.get(`${EDGE_SERIES.wait} ${key}`);
      const capacity = fixed?.capacityBytesPerSecond ?? 0;
      return {
        id,
        points: times.map((timeMs, i) =>
          linkPoint(timeMs, bytesAt?.[i] ?? null, capacity, waitAt?.[i] ?? null),
        ),
      };
    });
  }

  /**
   * Many directions' history as columns (a job's report): a few queries of many series each, read from their text
   * into typed arrays (prometheus-columns.ts).
   */
  linkColumns(ids: readonly string[], range: TimeRange, signal?: AbortSignal): Promise<LinkColumn[]> {
    return prometheusColumns(
      this.client,
      this.index,
      ids,
      range,
      (name, selector) => held(`${name}${selector}`, this.heldMs),
      signal,
    );
  }

  /** Link-state changes and counter resets between `fromMs` and `toMs` (prometheus-events.ts). */
  events(fromMs: number, toMs: number, signal?: AbortSignal): Promise<FabricEvent[]> {
    return seriesEvents(
      this.client,
      {
        stepMs: Math.max(this.resolutionMs, Math.ceil((toMs - fromMs) / 10_000)),
        linkOfPort: (port) => this.bySender.get(port)?.fixed.linkId ?? port,
        nameOfGuid: (guid) => this.nameOfGuid.get(guid) ?? guid,
      },
      fromMs,
      toMs,
      signal,
    );
  }
}

/**
 * One range series' values at the asked instants: the point nearest each within half a step (a PromQL backend may align
 * its points to step multiples, as VictoriaMetrics does); absent or NaN points are unknown (null).
 */
function alignPoints(
  values: readonly [number, string][] | undefined,
  times: readonly number[],
  stepMs: number,
): (number | null)[] {
  const out = new Array<number | null>(times.length).fill(null);
  if (!values || values.length === 0) return out;
  let j = 0;
  const half = stepMs / 2;
  for (let i = 0; i < times.length; i++) {
    const t = times[i] as number;
    while (
      j + 1 < values.length &&
      Math.abs((values[j + 1]?.[0] as number) * 1000 - t) <= Math.abs((values[j]?.[0] as number) * 1000 - t)
    )
      j++;
    const [at, v] = values[j] as [number, string];
    if (Math.abs(at * 1000 - t) <= half) out[i] = sampleValue(v);
  }
  return out;
}
