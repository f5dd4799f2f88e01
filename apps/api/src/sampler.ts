import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Health, LinkDirectionState } from '@fabscope/contracts';
import { type LinkFrame, statesOf } from './lib/frame.ts';
import { frameForSliced } from './lib/frame-from-rates.ts';
import type { LinkIndex } from './lib/link-index.ts';
import type { RatesSnapshot } from './lib/port-rates.ts';
import { redactAddresses } from './lib/redact.ts';
import { staleAfterSeconds } from './lib/staleness.ts';
import type { FabricSummary } from './lib/summary.ts';
import { summarizeLiveInTurns } from './lib/summary.ts';
import type { MetricsStore } from './store/types.ts';

/** What a process supervisor (the demo's Prometheus) reports into health. */
export type SupervisorStatus = NonNullable<Health['supervisor']>;

export interface Tick {
  readonly time: string;
  readonly health: Health;
  readonly summary: FabricSummary;
  /** Every direction as an object, made from the frame on first use: for answers of every direction. */
  readonly links: LinkDirectionState[];
  /** The tick's directions as columns (not serialized with the tick). */
  readonly frame: LinkFrame;
}

/** A tick whose `links` are made from its frame when first read. */
export function tickOf(time: string, health: Health, summary: FabricSummary, frame: LinkFrame): Tick {
  const tick = { time, health, summary };
  Object.defineProperty(tick, 'links', { enumerable: true, get: () => statesOf(frame) });
  Object.defineProperty(tick, 'frame', { enumerable: false, value: frame });
  return tick as Tick;
}

/** Health of a snapshot `elapsedSeconds` after it was read: ages keep growing between ticks. */
function healthOf(
  snapshot: { ok: boolean; error?: string | undefined; lastSampleAgeSeconds: number | null },
  store: Pick<MetricsStore, 'kind' | 'liveSource'>,
  intervalMs: number,
  staleAfter: number,
  elapsedSeconds: number,
  topologyVersion: number,
): { health: Health; detailedError: string | undefined } {
  const age =
    snapshot.lastSampleAgeSeconds === null
      ? null
      : Math.round((snapshot.lastSampleAgeSeconds + Math.max(0, elapsedSeconds)) * 1000) / 1000;
  const fresh = age !== null && age <= staleAfter;
  const health: Health = {
    status: !snapshot.ok ? 'degraded' : fresh ? 'ok' : 'stale',
    store: store.kind,
    ...(store.liveSource ? { liveSource: store.liveSource } : {}),
    lastSampleAgeSeconds: age,
    intervalMs,
    staleAfterSeconds: staleAfter,
    // Said once the API draws another topology than the one it loaded.
    ...(topologyVersion > 0 ? { topologyVersion } : {}),
  };
  let detailedError = snapshot.error;
  if (detailedError === undefined && !fresh)
    detailedError = age === null ? 'no samples yet' : `newest sample is ${age.toFixed(1)} s old`;
  if (detailedError !== undefined) health.error = redactAddresses(detailedError);
  return { health, detailedError };
}

/**
 * The one refresh clock: once per interval (or after each scrape of a store with its own clock), reads rates, computes
 * frame and summary, and hands the same tick to every reader and tick listener (the stream's TickBroadcast among them).
 */
export class Sampler {
  private latestTick: Tick | null = null;
  /** The store's answer behind `latest`, for health at the time it is asked. */
  private latestSnapshot: {
    timeMs: number;
    ok: boolean;
    error?: string;
    lastSampleAgeSeconds: number | null;
    staleAfter: number;
  } | null = null;
  private timer: NodeJS.Timeout | undefined;
  /** When the store's latest scrape landed (the `now` clock). */
  private scrapedAt = 0;
  /** The store's own staleness limit at its latest answer (0 when it gives none). */
  private storeStaleAfterMs = 0;
  private stopped = false;
  private supervisor: (() => SupervisorStatus) | undefined;
  private running: Promise<Tick> | null = null;
  private unsubscribe: (() => void) | undefined;
  /** A scrape landed while a sample was running: sample again when it ends. */
  private queued = false;
  private readonly tickListeners = new Set<(tick: Tick, snapshot: RatesSnapshot) => void | Promise<void>>();
  /** Ticks computed so far: answers cached for a tick are valid while this stays the same. */
  tickCount = 0;
  /** Interval ticks skipped because the sample before was still being computed. */
  skippedTicks = 0;

  /** The version of the topology drawn: 0 as loaded, one more each time useIndex swaps it. */
  topologyVersion = 0;

  constructor(
    private readonly store: MetricsStore,
    private index: LinkIndex,
    readonly intervalMs = 1000,
    /** Monotonic milliseconds for the tick clock (tests pass their own). */
    private readonly now: () => number = () => performance.now(),
  ) {}

  start(): void {
    if (this.timer || this.unsubscribe) return;
    this.stopped = false;
    void this.sample();
    if (this.store.onScrape) {
      // The store scrapes on its own clock: a tick follows each scrape, so a tick never shows the
      // scrape before (up to an interval older) and the first rates come with the second scrape.
      this.scrapedAt = this.now();
      this.unsubscribe = this.store.onScrape(() => {
        this.scrapedAt = this.now();
        this.sampleAfterScrape();
      });
      // A scrape that hangs (a stalled collector) still lets the live view turn unknown on time: with no scrape for two
      // intervals and the store's staleness limit (a slow fabric's scrapes are not ticked between), a tick each
      // interval on this clock reads the store as it is.
      this.timer = setInterval(() => {
        const quietMs = Math.max(2 * this.intervalMs, this.storeStaleAfterMs);
        if (!this.running && this.now() - this.scrapedAt >= quietMs) void this.sample();
      }, this.intervalMs);
      this.timer.unref();
      return;
    }
    // Ticks on a fixed clock (origin + n × interval), not setInterval's: a busy event loop delays
    // a tick, it does not shift every later one (which would send fewer ticks than promised).
    const origin = this.now();
    let n = 0;
    const next = () => {
      if (this.stopped) return;
      const now = this.now();
      // The first slot still ahead; slots already gone by are skipped, so ticks never pile up.
      const slot = Math.floor((now - origin) / this.intervalMs) + 1;
      if (slot > n + 1) this.skippedTicks += slot - n - 1;
      n = slot;
      this.timer = setTimeout(
        () => {
          // A tick that finds the sample before still running is skipped.
          if (this.running) this.skippedTicks++;
          else void this.sample();
          next();
        },
        Math.max(0, origin + n * this.intervalMs - now),
      );
    };
    next();
  }

  private sampleAfterScrape(): void {
    if (this.stopped) return;
    if (!this.running) {
      void this.sample();
      return;
    }
    if (this.queued) return;
    this.queued = true;
    // sample()'s own finally, attached first, has cleared `running` when this one runs.
    void this.running.finally(() => {
      this.queued = false;
      this.sampleAfterScrape();
    });
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    this.timer = undefined;
    this.unsubscribe?.();
    this.unsubscribe = undefined;
    await this.running;
  }

  /** Samples now (sharing a sample already under way). */
  sample(): Promise<Tick> {
    this.running ??= this.compute().finally(() => {
      this.running = null;
    });
    return this.running;
  }

  /**
   * The latest tick, with its health as of now: when ticks lag (a slow store, a busy process),
   * the age still grows and health turns stale on time.
   */
  async current(): Promise<Tick> {
    const tick = this.latestTick ?? (await this.sample());
    return tickOf(tick.time, this.healthNow().health, tick.summary, tick.frame);
  }

  /** Health as of now, and the unredacted reason for callers allowed to see internal addresses. */
  healthNow(nowMs = Date.now()): { health: Health; detailedError: string | undefined } {
    const result = this.storeHealth(nowMs);
    if (this.supervisor) result.health.supervisor = this.supervisor();
    return result;
  }

  /** Draws another topology (a re-discovered fabric) from the next tick on; ticks say its version. */
  useIndex(index: LinkIndex): void {
    this.index = index;
    this.topologyVersion++;
    void this.sample();
  }

  /** Adds a supervisor's state to every health answer from now on. */
  reportSupervisor(status: () => SupervisorStatus): void {
    this.supervisor = status;
  }

  private storeHealth(nowMs: number): { health: Health; detailedError: string | undefined } {
    const s = this.latestSnapshot ?? {
      timeMs: nowMs,
      ok: true,
      lastSampleAgeSeconds: null,
      staleAfter: staleAfterSeconds(this.intervalMs),
    };
    const elapsedSeconds = (nowMs - s.timeMs) / 1000;
    return healthOf(s, this.store, this.intervalMs, s.staleAfter, elapsedSeconds, this.topologyVersion);
  }

  /** Calls `listener` with every tick computed from now on and the store's answer behind it. */
  onTick(listener: (tick: Tick, snapshot: RatesSnapshot) => void | Promise<void>): () => void {
    this.tickListeners.add(listener);
    return () => this.tickListeners.delete(listener);
  }

  /** The latest tick as computed (its health as of then), null before the first. */
  get latest(): Tick | null {
    return this.latestTick;
  }

  private async compute(): Promise<Tick> {
    const snapshot = await this.store.rates();
    this.storeStaleAfterMs = (snapshot.staleAfterSeconds ?? 0) * 1000;
    // The topology drawn when the rates came: a swap meanwhile is the next tick's.
    const { index, topologyVersion } = this;
    // Every direction computed once, as columns, in slices of the event loop.
    const frame = await frameForSliced(index, snapshot);
    const summary = await summarizeLiveInTurns(frame);
    const staleAfter = staleAfterSeconds(this.intervalMs, snapshot.staleAfterSeconds);
    const read = {
      timeMs: snapshot.timeMs,
      ok: snapshot.ok,
      lastSampleAgeSeconds: snapshot.lastSampleAgeSeconds,
      staleAfter,
      ...(snapshot.error === undefined ? {} : { error: snapshot.error }),
    };
    const { health } = healthOf(read, this.store, this.intervalMs, staleAfter, 0, topologyVersion);
    const tick = tickOf(summary.time, health, summary, frame);
    this.latestTick = tick;
    this.latestSnapshot = read;
    this.tickCount++;
    // A turn of the event loop between the stages of a tick, so answers wait one stage at most.
    for (const listener of this.tickListeners) {
      await nextTurn();
      // A listener that takes turns of its own (the health watch) is awaited: ticks never overlap.
      await listener(tick, snapshot);
    }
    return tick;
  }
}
