import { compactTick } from './lib/compact-tick.ts';
import {
  type FabricSummary,
  type LinkDirectionState,
  type LinkIndex,
  linkDirectionStates,
  summarize,
} from './lib/utilization.ts';
import type { MetricsStore } from './store/types.ts';

export interface Health {
  status: 'ok' | 'degraded';
  store: MetricsStore['kind'];
  lastSampleAgeSeconds: number | null;
  error?: string;
}

export interface Tick {
  time: string;
  health: Health;
  summary: FabricSummary;
  links: LinkDirectionState[];
}

/**
 * Encodings of a tick on the stream: `full` has every link direction as an object; `compact` has
 * per-channel arrays in topology order and only the busiest directions as objects (compact-tick.ts).
 */
export const STREAM_VIEWS = ['full', 'compact'] as const;
export type StreamView = (typeof STREAM_VIEWS)[number];

type Listener = (json: string) => void;

/**
 * Data older than this is stale on screen and in /health, or than the store's own limit when
 * that is longer (an embedded store scraping a big fabric every 10 s).
 */
export const STALE_AFTER_SECONDS = 5;

/**
 * The one refresh clock: once per interval, read rates from the store, compute every link's
 * utilization and the summary, and hand the same result to every reader and stream client. Each
 * stream encoding is serialized at most once per tick, and only while a client of it is connected.
 */
export class Sampler {
  private latest: Tick | null = null;
  /** Serialized encodings of `latest`, made on demand. */
  private encoded = new Map<StreamView, string>();
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<Tick> | null = null;
  private readonly listeners: Record<StreamView, Set<Listener>> = { full: new Set(), compact: new Set() };
  /** Interval ticks skipped because the sample before was still being computed. */
  skippedTicks = 0;
  /** How many times each encoding was serialized (for tests and diagnostics). */
  readonly serializations: Record<StreamView, number> = { full: 0, compact: 0 };

  constructor(
    private readonly store: MetricsStore,
    private readonly index: LinkIndex,
    private readonly intervalMs = 1000,
  ) {}

  start(): void {
    if (this.timer) return;
    void this.sample();
    // A tick that finds the sample before still running is skipped: ticks never pile up.
    this.timer = setInterval(() => {
      if (this.running) this.skippedTicks++;
      else void this.sample();
    }, this.intervalMs);
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.running;
  }

  /** Samples now (sharing a sample already under way). */
  sample(): Promise<Tick> {
    this.running ??= this.compute().finally(() => {
      this.running = null;
    });
    return this.running;
  }

  async current(): Promise<Tick> {
    return this.latest ?? (await this.sample());
  }

  /** Calls `listener` with the latest tick in `view` (if any) and then once per tick. */
  subscribe(listener: Listener, view: StreamView = 'full'): () => void {
    this.listeners[view].add(listener);
    const json = this.encode(view);
    if (json !== null) listener(json);
    return () => this.listeners[view].delete(listener);
  }

  /** Connected stream clients, all views together. */
  get clientCount(): number {
    return this.listeners.full.size + this.listeners.compact.size;
  }

  /** The latest tick serialized in `view`, computed once per tick; null before the first tick. */
  private encode(view: StreamView): string | null {
    const tick = this.latest;
    if (tick === null) return null;
    let json = this.encoded.get(view);
    if (json === undefined) {
      json = JSON.stringify(view === 'compact' ? compactTick(tick) : tick);
      this.serializations[view]++;
      this.encoded.set(view, json);
    }
    return json;
  }

  private async compute(): Promise<Tick> {
    const snapshot = await this.store.rates();
    const links = linkDirectionStates(this.index, snapshot);
    const summary = summarize(this.index, links, snapshot.timeMs);
    const age = snapshot.lastSampleAgeSeconds;
    const staleAfter = Math.max(STALE_AFTER_SECONDS, snapshot.staleAfterSeconds ?? 0);
    const fresh = snapshot.ok && age !== null && age <= staleAfter;
    const health: Health = {
      status: fresh ? 'ok' : 'degraded',
      store: this.store.kind,
      lastSampleAgeSeconds: age,
    };
    if (snapshot.error) health.error = snapshot.error;
    else if (!fresh)
      health.error = age === null ? 'no samples yet' : `newest sample is ${age.toFixed(1)} s old`;
    const tick: Tick = { time: summary.time, health, summary, links };
    this.latest = tick;
    this.encoded = new Map();
    for (const view of STREAM_VIEWS) {
      if (this.listeners[view].size === 0) continue;
      const json = this.encode(view);
      if (json !== null) for (const listener of this.listeners[view]) listener(json);
    }
    return tick;
  }
}
