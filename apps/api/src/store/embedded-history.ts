import type { EventLog } from '../events/event-log.ts';
import { frameFor, type LinkFrame, summarizeFrame } from '../lib/frame.ts';
import { UNKNOWN_CATEGORIES, UNKNOWN_ERRORS } from '../lib/link-errors.ts';
import { rangeTimes, type TimeRange } from '../lib/time-params.ts';
import { directionState, type FabricSummary, type LinkIndex } from '../lib/utilization.ts';
import type { FabricHistoryDir } from './history-file/fabric-dir.ts';
import { HistorySegments } from './history-file/history-segments.ts';
import {
  DEFAULT_HISTORY_MAX_BYTES,
  DEFAULT_HISTORY_SECONDS,
  historyFrames,
  LinkHistory,
} from './link-history.ts';
import type { FabricAt, LinkSeries, SummaryPoint, TimeQueries } from './time-queries.ts';
import type { RatesSnapshot } from './types.ts';

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
  /**
   * Rates over the history's window after a scrape: the very snapshot the sampler's tick was
   * computed from when the two windows pick the same readings (embedded.ts), so that both read
   * one frame (lib/frame.ts `frameFor`).
   */
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
  /**
   * This fabric's history directory (FABSCOPE_DATA_DIR; history-file/): the history is read back
   * from it at start and every frame appended to it. Unset: in memory only.
   */
  historyDir?: FabricHistoryDir | undefined;
  /** Segment length on disk (default 10 minutes). */
  segmentMs?: number | undefined;
  /** Wall clock, for what the retention keeps at start (default Date.now). */
  now?: (() => number) | undefined;
}

/**
 * The embedded store's answers about the past: after each scrape, the frame of the link
 * directions (lib/frame.ts, the one formula; the sampler's own frame when the store hands both the
 * same snapshot) and its summary are kept, encoded, as a frame of the bounded history
 * (link-history.ts); instants and ranges read the frame in force at each time.
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
  private readonly byId = new Map<string, LinkIndex['channels'][number]>();
  /** portKey → `node/port`, for events. */
  private readonly portNames = new Map<string, string>();

  constructor(
    private readonly feed: ScrapeFeed,
    private readonly index: LinkIndex,
    private readonly options: EmbeddedHistoryOptions,
  ) {
    const channels = index.channels.length;
    this.resolutionMs = options.intervalMs;
    for (const ch of index.channels) {
      this.portNames.set(ch.fromKey, `${ch.fixed.from.node}/${ch.fixed.from.port}`);
      this.byId.set(ch.fixed.id, ch);
    }
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
    const frame = frameFor(this.index, snapshot);
    const summary = summarizeFrame(frame, false, done.timeMs);
    const events = this.options.events;
    if (events) {
      const previous = this.history.frameAt(Number.POSITIVE_INFINITY, Number.POSITIVE_INFINITY);
      if (previous >= 0) this.linkStateEvents(previous, frame, done.timeMs, events);
      for (const port of done.resetPorts)
        events.append({
          timeMs: done.timeMs,
          kind: 'counter-reset',
          subject: this.portNames.get(port) ?? port,
          detail: 'counters went backwards',
        });
    }
    const ring = this.history.recordFrame(done.timeMs, frame, summary);
    if (ring >= 0)
      this.file?.append({ timeMs: done.timeMs, columns: this.history.frameColumns(ring), summary });
  }

  /** A link seen going down or up: one event per link (its two directions agree). */
  private linkStateEvents(previous: number, frame: LinkFrame, timeMs: number, events: EventLog) {
    const seen = new Set<string>();
    const before = this.history.frameColumns(previous).up;
    const now = frame.linkUp;
    for (let c = 0; c < now.length; c++) {
      const was = before[c] as number;
      const is = now[c] as number;
      if (was < 0 || is < 0 || was === is) continue;
      const linkId = (this.index.channels[c] as LinkIndex['channels'][number]).fixed.linkId;
      if (seen.has(linkId)) continue;
      seen.add(linkId);
      events.append({
        timeMs,
        kind: 'link-state',
        subject: linkId,
        detail: is === 1 ? 'link up' : 'link down',
      });
    }
  }

  private frameAt(timeMs: number): number {
    return this.history.frameAt(timeMs, this.feed.staleAfterMs());
  }

  async linksAt(timeMs: number): Promise<FabricAt> {
    const frame = this.frameAt(timeMs);
    const history = this.history;
    const links = this.index.channels.map(({ fixed, index: c }) =>
      directionState(fixed, {
        bytesPerSecond: frame < 0 ? null : history.bytesPerSecond(frame, c, fixed.capacityBytesPerSecond),
        // Not kept in the history (docs/history.md): unknown at past instants.
        packetsPerSecond: null,
        transmitWaitTicksPerSecond: null,
        transmitWaitFraction: frame < 0 ? null : history.waitFraction(frame, c),
        linkUp: frame < 0 ? null : history.linkUp(frame, c),
        // Error counters are not kept in the history either: live only.
        errors: UNKNOWN_ERRORS,
        categories: UNKNOWN_CATEGORIES,
      }),
    );
    return { timeMs, links };
  }

  async summaryAt(timeMs: number): Promise<FabricSummary> {
    const frame = this.frameAt(timeMs);
    const summary = frame < 0 ? undefined : this.history.summaryOf(frame);
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
      const frame = this.frameAt(timeMs);
      const summary = frame < 0 ? undefined : this.history.summaryOf(frame);
      return {
        timeMs,
        hostTransmitBytesPerSecond: summary?.hostTransmitBytesPerSecond ?? null,
        histogram: summary ? summary.histogram : null,
      };
    });
  }

  async linkRange(ids: readonly string[], range: TimeRange): Promise<LinkSeries[]> {
    const times = rangeTimes(range);
    const frames = times.map((t) => this.frameAt(t));
    return ids.map((id) => {
      const channel = this.byId.get(id);
      return {
        id,
        points: times.map((timeMs, i) => {
          const frame = frames[i] as number;
          if (!channel || frame < 0)
            return { timeMs, utilization: null, bytesPerSecond: null, transmitWaitFraction: null };
          const capacity = channel.fixed.capacityBytesPerSecond;
          const bytes = this.history.bytesPerSecond(frame, channel.index, capacity);
          return {
            timeMs,
            utilization: bytes === null ? null : Math.min(1, bytes / capacity),
            bytesPerSecond: bytes,
            transmitWaitFraction: this.history.waitFraction(frame, channel.index),
          };
        }),
      };
    });
  }
}
