import { utilizationOf } from '@fabscope/topology';
import type { EventLog } from '../lib/fabric-event.ts';
import { type LinkFrame, statesOf } from '../lib/frame.ts';
import { frameForSliced, frameOfKept } from '../lib/frame-from-rates.ts';
import { directionErrors, errorsPerSecond } from '../lib/link-errors.ts';
import type { ChannelKeys, LinkIndex } from '../lib/link-index.ts';
import { emptyPortRates, type PortRates, type RatesSnapshot } from '../lib/port-rates.ts';
import type { FabricSummary } from '../lib/summary.ts';
import { summarizeLiveInTurns } from '../lib/summary.ts';
import { rangeTimes, type TimeRange } from '../lib/time-params.ts';
import { channelErrorsOf, portErrorsOf } from './error-reading.ts';
import { DEFAULT_HISTORY_MAX_BYTES, DEFAULT_HISTORY_SECONDS, historyFrames } from './history-encoding.ts';
import type { FabricHistoryDir } from './history-file/fabric-dir.ts';
import { HistorySegments } from './history-file/history-segments.ts';
import { LinkHistory } from './link-history.ts';
import { LinkStateEvents } from './link-state-events.ts';
import {
  type FabricAt,
  type HistoryKept,
  type LinkColumn,
  type LinkSeries,
  linkPoint,
  type SummaryPoint,
  type TimeQueries,
} from './time-queries.ts';

/** What the embedded store tells its history after each scrape. */
export interface ScrapeDone {
  /** Sample time of the scrape (its start, as Prometheus stamps it). */
  timeMs: number;
  /** Ports (`portKey`) whose counters went backwards in this scrape. */
  resetPorts: readonly string[];
}

/** The part of the embedded store its history needs. */
export interface ScrapeFeed {
  onScrape(listener: (done: ScrapeDone) => void): () => void;
  /** Rates over the history's window after a scrape (the sampler's snapshot when the windows agree: one frame). */
  rates(): Promise<RatesSnapshot>;
  /** Age beyond which a frame no longer stands for the instants after it. */
  staleAfterMs(): number;
}

export interface EmbeddedHistoryOptions {
  intervalMs: number;
  historySeconds?: number | undefined;
  historyMaxBytes?: number | undefined;
  /** Where link-state and counter-reset events seen in the samples go. */
  events?: EventLog | undefined;
  /** This fabric's history directory (FABSCOPE_DATA_DIR), read back at start; unset: memory only. */
  historyDir?: FabricHistoryDir | undefined;
  /** Segment length on disk (default 10 minutes). */
  segmentMs?: number | undefined;
  /** Wall clock, for what the retention keeps at start (default Date.now). */
  now?: (() => number) | undefined;
}

/**
 * The embedded store's answers about the past: after each scrape the frame and its summary are kept, encoded, in the
 * bounded history (link-history.ts); instants and ranges read the frame in force at each time.
 */
export class EmbeddedTimeQueries implements TimeQueries {
  readonly history: LinkHistory;
  /** The history on disk, when there is one. */
  readonly file: HistorySegments | null = null;
  /** What was read back from disk at start. */
  readonly loaded: { frames: number; segments: number; ms: number } | null = null;
  readonly resolutionMs: number;
  private readonly unsubscribe: () => void;
  private recording: Promise<void> = Promise.resolve();
  /** portKey → `node/port`, for events. */
  private readonly portNames = new Map<string, string>();
  /** Link states as last reported, so every `link down` has its `link up` across unknown stretches. */
  private readonly linkStates: LinkStateEvents;
  /** The past frames made last (a view scrubbing asks the same instants again): ring index → frame. */
  private readonly madeFrames = new Map<number, { timeMs: number; frame: LinkFrame }>();

  constructor(
    private readonly feed: ScrapeFeed,
    private readonly index: LinkIndex,
    private readonly options: EmbeddedHistoryOptions,
  ) {
    const channels = index.channels.length;
    this.linkStates = new LinkStateEvents(index);
    this.resolutionMs = options.intervalMs;
    for (const ch of index.channels)
      this.portNames.set(ch.fromKey, `${ch.fixed.from.node}/${ch.fixed.from.port}`);
    this.history = new LinkHistory(
      channels,
      historyFrames(channels, options.intervalMs, {
        seconds: options.historySeconds,
        maxBytes: options.historyMaxBytes,
      }),
    );
    if (options.historyDir) {
      if (options.historyDir.index !== index)
        throw new Error('the history directory belongs to another fabric');
      const started = performance.now();
      this.file = new HistorySegments(options.historyDir, {
        retentionMs: (options.historySeconds ?? DEFAULT_HISTORY_SECONDS) * 1000,
        maxBytes: options.historyMaxBytes ?? DEFAULT_HISTORY_MAX_BYTES,
        segmentMs: options.segmentMs,
        now: options.now,
      });
      const read = this.file.load((frame) =>
        this.history.recordEncoded(frame.timeMs, frame.columns, frame.summary),
      );
      this.loaded = { ...read, ms: performance.now() - started };
    }
    this.unsubscribe = feed.onScrape((done) => {
      this.recording = this.recording.then(() => this.record(done));
    });
  }

  kept(): HistoryKept {
    return {
      seconds: ((this.history.capacityFrames - 1) * this.resolutionMs) / 1000,
      oldestMs: this.history.span()?.oldestMs ?? null,
      onDisk: this.file !== null,
    };
  }

  close(): void {
    this.unsubscribe();
    this.file?.close();
  }

  /** Resolves once every scrape so far is in the history. */
  settled(): Promise<void> {
    return this.recording;
  }

  private async record(done: ScrapeDone): Promise<void> {
    const snapshot = await this.feed.rates();
    // In slices, or the sampler's frame of the same snapshot (the store shares the live rates).
    const frame = await frameForSliced(this.index, snapshot);
    // The live summary's fields (the categories' histograms, the ports without data) included.
    const summary = await summarizeLiveInTurns(frame, done.timeMs);
    const events = this.options.events;
    if (events) {
      const previous = this.history.frameAt(Number.POSITIVE_INFINITY, Number.POSITIVE_INFINITY);
      if (previous >= 0) this.linkStates.seed(this.history.frameColumns(previous).up);
      for (const event of this.linkStates.changes(frame.linkUp, done.timeMs)) events.append(event);
      for (const port of done.resetPorts)
        events.append({
          timeMs: done.timeMs,
          kind: 'counter-reset',
          subject: this.portNames.get(port) ?? port,
          detail: 'counters went backwards',
        });
    }
    await this.history.prepareReading(frame);
    const ring = this.history.recordFrame(done.timeMs, frame, summary);
    if (ring >= 0)
      this.file?.append({ timeMs: done.timeMs, columns: this.history.frameColumns(ring), summary });
  }

  /** The ring index of the frame in force at `timeMs`, −1 when none. */
  private ringAt(timeMs: number): number {
    return this.history.frameAt(timeMs, this.feed.staleAfterMs());
  }

  /**
   * Every direction at `timeMs` as a frame, made with the one formula from what the history kept then (frameOfKept).
   */
  async frameAt(timeMs: number): Promise<LinkFrame> {
    const ring = this.ringAt(timeMs);
    const made = this.madeFrames.get(ring);
    if (ring >= 0 && made?.timeMs === this.history.frameTime(ring)) return { ...made.frame, timeMs };
    const frame = this.frameOfRing(ring, timeMs);
    if (ring >= 0) {
      if (this.madeFrames.size >= 4) this.madeFrames.delete(this.madeFrames.keys().next().value as number);
      this.madeFrames.set(ring, { timeMs: this.history.frameTime(ring), frame });
    }
    return frame;
  }

  /** A kept frame (ring index; −1: none, all unknown) made again with the one formula. */
  private frameOfRing(ring: number, timeMs: number): LinkFrame {
    const n = this.index.channels.length;
    const kept = {
      bytesPerSecond: new Float64Array(n).fill(Number.NaN),
      packetsPerSecond: new Float64Array(n).fill(Number.NaN),
      transmitWaitFraction: new Float64Array(n).fill(Number.NaN),
      linkUp: new Int8Array(n).fill(-1),
    };
    const ports = new Map<string, PortRates>();
    if (ring < 0) return frameOfKept(this.index, timeMs, kept, ports);
    const history = this.history;
    for (const { fixed, index: c } of this.index.channels) {
      kept.bytesPerSecond[c] = history.bytesPerSecond(ring, c, fixed.capacityBytesPerSecond) ?? Number.NaN;
      kept.packetsPerSecond[c] = history.packetsPerSecond(ring, c) ?? Number.NaN;
      kept.transmitWaitFraction[c] = history.waitFraction(ring, c) ?? Number.NaN;
    }
    kept.linkUp.set(history.frameColumns(ring).up);
    const reading = history.frameColumns(ring).errors;
    if (reading)
      for (const [key, errors] of portErrorsOf(this.index, reading)) {
        const port = emptyPortRates();
        port.errors = errors;
        ports.set(key, port);
      }
    return frameOfKept(this.index, timeMs, kept, ports);
  }

  async linksAt(timeMs: number): Promise<FabricAt> {
    return { timeMs, links: statesOf(await this.frameAt(timeMs)) };
  }

  private summaryAtTime(timeMs: number): FabricSummary | undefined {
    const frame = this.ringAt(timeMs);
    return frame < 0 ? undefined : this.history.summaryOf(frame);
  }

  async summaryAt(timeMs: number): Promise<FabricSummary> {
    const summary = this.summaryAtTime(timeMs);
    const time = new Date(timeMs).toISOString();
    if (summary) return { ...summary, time };
    return {
      time,
      hostTransmitBytesPerSecond: null,
      histogram: { isl: new Array(10).fill(0), host: new Array(10).fill(0) },
      staleLinks: this.index.channels.length,
    };
  }

  async summaryRange(range: TimeRange): Promise<SummaryPoint[]> {
    return rangeTimes(range).map((timeMs) => {
      const summary = this.summaryAtTime(timeMs);
      return {
        timeMs,
        hostTransmitBytesPerSecond: summary?.hostTransmitBytesPerSecond ?? null,
        histogram: summary ? summary.histogram : null,
      };
    });
  }

  async linkRange(ids: readonly string[], range: TimeRange): Promise<LinkSeries[]> {
    const times = rangeTimes(range);
    const frames = times.map((t) => this.ringAt(t));
    return ids.map((id) => {
      const channel = this.index.channelById.get(id);
      // The receiving port's errors are read where it sends: the reverse direction.
      const reverse = channel ? this.index.channelById.get(reverseId(id)) : undefined;
      return {
        id,
        points: times.map((timeMs, i) => {
          const frame = frames[i] as number;
          if (!channel || frame < 0) return linkPoint(timeMs, null, 0, null);
          const capacity = channel.fixed.capacityBytesPerSecond;
          const bytes = this.history.bytesPerSecond(frame, channel.index, capacity);
          const reading = this.history.frameColumns(frame).errors;
          const errors = reading
            ? errorsPerSecond(
                directionErrors(
                  { errors: channelErrorsOf(reading, channel.index) },
                  reverse ? { errors: channelErrorsOf(reading, reverse.index) } : undefined,
                ),
              )
            : null;
          return linkPoint(timeMs, bytes, capacity, this.history.waitFraction(frame, channel.index), errors);
        }),
      };
    });
  }

  async linkColumns(ids: readonly string[], range: TimeRange): Promise<LinkColumn[]> {
    const timesMs = Float64Array.from(rangeTimes(range));
    const n = timesMs.length;
    const utilization = new Float64Array(ids.length * n).fill(Number.NaN);
    const wait = new Float64Array(ids.length * n).fill(Number.NaN);
    const columns = ids.map((id, k) => ({
      id,
      timesMs,
      utilization: utilization.subarray(k * n, (k + 1) * n),
      transmitWaitFraction: wait.subarray(k * n, (k + 1) * n),
    }));
    // Frame by frame, each in channel order: the ring keeps a frame's channels side by side, not a channel's frames.
    const asked = ids
      .map((id, k) => ({ k, channel: this.index.channelById.get(id) }))
      .filter((a): a is { k: number; channel: ChannelKeys } => a.channel !== undefined)
      .sort((a, b) => a.channel.index - b.channel.index);
    for (let i = 0; i < n; i++) {
      const frame = this.ringAt(timesMs[i] as number);
      if (frame < 0) continue;
      for (const { k, channel } of asked) {
        const capacity = channel.fixed.capacityBytesPerSecond;
        // The one formula linkRange's points use (linkPoint → utilizationOf).
        const u = utilizationOf(this.history.bytesPerSecond(frame, channel.index, capacity), capacity);
        const w = this.history.waitFraction(frame, channel.index);
        if (u !== null) utilization[k * n + i] = u;
        if (w !== null) wait[k * n + i] = w;
      }
    }
    return columns;
  }
}

/** `b/q->a/p` of `a/p->b/q`. */
function reverseId(id: string): string {
  const arrow = id.indexOf('->');
  return arrow < 0 ? id : `${id.slice(arrow + 2)}->${id.slice(0, arrow)}`;
}
