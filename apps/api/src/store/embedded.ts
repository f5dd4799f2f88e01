import type { EventLog } from '../lib/fabric-event.ts';
import type { LinkIndex } from '../lib/link-index.ts';
import type { RatesSnapshot } from '../lib/port-rates.ts';
import { type ScrapeTiming, scrapeTiming } from '../lib/staleness.ts';
import { EmbeddedTimeQueries, type ScrapeDone } from './embedded-history.ts';
import type { FabricHistoryDir } from './history-file/fabric-dir.ts';
import { PortReadings } from './port-readings.ts';
import { fabscopeMapping, type SeriesMapping } from './series-mapping.ts';
import { TargetScraper, type TargetScrapeStats } from './target-scraper.ts';
import type { MetricsStore, PortTotals } from './types.ts';

export interface EmbeddedStoreOptions {
  /** Collector `/metrics` URLs to scrape. */
  targets: string[];
  scrapeIntervalMs?: number;
  /** Rates span at least this much history (newest reading against the oldest within it). */
  rateWindowMs?: number;
  /** Series not seen for this long are stale; a scrape is aborted after timeoutMs. Default: lib/staleness.ts. */
  staleAfterMs?: number;
  timeoutMs?: number;
  fetch?: typeof fetch;
  now?: () => number;
  /** Whose series to read (FABSCOPE_METRICS_SOURCE); fabscope's own by default. */
  mapping?: SeriesMapping;
  /** History kept for time travel (default 1 h; docs/history.md). */
  historySeconds?: number | undefined;
  /** Rate window of the history's frames (default 5 s, as the recording rules; at least rateWindowMs). */
  historyRateWindowMs?: number | undefined;
  /** Most bytes the history may take (default 512 MiB): fewer frames are kept beyond it. */
  historyMaxBytes?: number | undefined;
  /** Where link-state and counter-reset events seen in the samples go. */
  events?: EventLog | undefined;
  /** The history directory of the fabric whose history is kept on disk (embedded-history.ts). */
  historyDir?: FabricHistoryDir | undefined;
  /** How often the error families are asked for: every scrape at 1 s, else every max(30 s, 3 intervals). */
  errorIntervalMs?: number | undefined;
}

export interface ScrapeStats {
  /** Duration of the last completed scrape of every target, ms (null before the first). */
  lastDurationMs: number | null;
  /** Longest of the last few scrapes, ms: what the timeout and the stale limit are derived from. */
  recentDurationMs: number | null;
  timing: ScrapeTiming;
  /** Interval ticks skipped because the scrape before was still running. */
  skippedTicks: number;
  /** Ports with a history. */
  ports: number;
  targets: TargetScrapeStats[];
}

function median(durations: readonly number[]): number | null {
  if (durations.length === 0) return null;
  const sorted = [...durations].sort((a, b) => a - b);
  return sorted[(sorted.length - 1) >> 1] as number;
}

function remember(durations: number[], ms: number): void {
  durations.push(ms);
  if (durations.length > RECENT_SCRAPES) durations.shift();
}

/** The earliest second scrape after start: over a shorter span the stamps' milliseconds are noise. */
const SECOND_SCRAPE_AFTER_MS = 1000;

/** Scrape durations remembered for the timing. */
const RECENT_SCRAPES = 5;

/**
 * Whether rates over any window up to `windowMs` are those of the newest reading and the one
 * before, scraping every `intervalMs` (a scrape off by half an interval still agrees).
 */
export function windowsAgree(intervalMs: number, windowMs: number): boolean {
  return intervalMs >= 2 * windowMs;
}

/** As the recording rules' rate5s: the history's figures agree with Prometheus'. */
const HISTORY_RATE_WINDOW_MS = 5000;

/**
 * The default store: scrapes the collectors itself, Prometheus-style, and keeps the last few
 * readings of every port in memory (a ring per port slot). No external server needed.
 */
export class EmbeddedStore implements MetricsStore {
  readonly kind = 'embedded';
  private lastError: string | null = null;
  private timer: NodeJS.Timeout | undefined;
  private secondScrape: NodeJS.Timeout | undefined;
  private inFlight: Promise<void> | null = null;
  /** Aborts the scrape in flight on close (a big fabric's streams for seconds). */
  private readonly closing = new AbortController();
  private readonly now: () => number;
  private readonly intervalMs: number;
  private readonly windowMs: number;
  /** Rate window of the history's frames (longer: what is kept should not carry scrape jitter). */
  private readonly historyWindowMs: number;
  private readonly mapping: SeriesMapping;
  private readonly scraper: TargetScraper;
  private readonly errorIntervalMs: number;
  private lastErrorScrapeMs = Number.NEGATIVE_INFINITY;

  /** Every port's last readings (a ring per port) and the staging of the scrape under way. */
  private readonly readings: PortReadings;

  private readonly recentDurations: number[] = [];
  /** The same, of scrapes every target answered: a failed scrape (a stalled collector) never widens the stale limit. */
  private readonly answeredDurations: number[] = [];
  private lastDurationMs: number | null = null;
  private skippedTicks = 0;
  private targetStats: TargetScrapeStats[] = [];
  private readonly scrapeListeners = new Set<(done: ScrapeDone) => void>();
  /** Ports whose counters went backwards in the scrape under way. */
  private resetPorts: string[] = [];
  private readonly histories = new Map<LinkIndex, EmbeddedTimeQueries>();
  /** Scrapes completed: a snapshot is shared only within one. */
  private scrapes = 0;
  /** The live rates asked for since the latest scrape (computed in slices: a promise of them). */
  private lastLive: { scrape: number; startedMs: number; snapshot: Promise<RatesSnapshot> } | null = null;

  constructor(private readonly options: EmbeddedStoreOptions) {
    this.mapping = options.mapping ?? fabscopeMapping;
    this.now = options.now ?? Date.now;
    this.intervalMs = options.scrapeIntervalMs ?? 1000;
    this.windowMs = options.rateWindowMs ?? 2000;
    // Enough readings to span the rate window, and one before it.
    this.historyWindowMs = Math.max(this.windowMs, options.historyRateWindowMs ?? HISTORY_RATE_WINDOW_MS);
    this.readings = new PortReadings(
      Math.min(16, Math.max(3, Math.ceil(this.historyWindowMs / this.intervalMs) + 2)),
    );
    this.scraper = new TargetScraper(
      options.targets,
      this.readings,
      this.mapping,
      options.fetch ?? fetch,
      this.now,
      (key) => this.resetPorts.push(key),
    );
    this.errorIntervalMs =
      options.errorIntervalMs ?? (this.intervalMs <= 1000 ? 0 : Math.max(30_000, 3 * this.intervalMs));
  }

  /** Scrapes now, every interval after. */
  start(): void {
    if (this.timer) return;
    const startedMs = this.now();
    const first = this.scrapeOnce(false);
    if (this.intervalMs > SECOND_SCRAPE_AFTER_MS) {
      void first.then(() => {
        if (!this.timer) return;
        this.secondScrape = setTimeout(
          () => {
            if (this.timer && !this.inFlight) void this.scrapeOnce(false);
          },
          Math.max(0, startedMs + SECOND_SCRAPE_AFTER_MS - this.now()),
        );
      });
    }
    this.timer = setInterval(() => {
      // A scrape longer than the interval makes the store skip ticks, never pile scrapes up.
      if (this.inFlight) this.skippedTicks++;
      else void this.scrapeOnce();
    }, this.intervalMs);
  }

  /** One scrape of every target; concurrent calls share the one in flight. */
  scrapeOnce(errorsDue = true): Promise<void> {
    this.inFlight ??= this.scrapeAll(errorsDue).finally(() => {
      this.inFlight = null;
    });
    return this.inFlight;
  }

  /** The timeout and stale limit now in force, from the interval and the recent scrape durations. */
  timing(): ScrapeTiming {
    const overrides = { timeoutMs: this.options.timeoutMs, staleAfterMs: this.options.staleAfterMs };
    // The timeout grows with any scrape (one that timed out may need longer); the period and stale limit with the usual
    // answered one (the median): a collector that stalls, then answers once late, is a gap, not a slower fabric.
    const answered = scrapeTiming(this.intervalMs, median(this.answeredDurations), overrides);
    const longest = this.recentDurations.length > 0 ? Math.max(...this.recentDurations) : null;
    return { ...answered, timeoutMs: scrapeTiming(this.intervalMs, longest, overrides).timeoutMs };
  }

  stats(): ScrapeStats {
    return {
      lastDurationMs: this.lastDurationMs,
      recentDurationMs: this.recentDurations.length > 0 ? Math.max(...this.recentDurations) : null,
      timing: this.timing(),
      skippedTicks: this.skippedTicks,
      ports: this.readings.keys.length,
      targets: this.targetStats,
    };
  }

  private async scrapeAll(errorsDue: boolean): Promise<void> {
    const errors: string[] = [];
    const started = this.now();
    const { timeoutMs } = this.timing();
    const withErrors =
      (errorsDue || this.errorIntervalMs === 0) && started - this.lastErrorScrapeMs >= this.errorIntervalMs;
    if (withErrors) this.lastErrorScrapeMs = started;
    const stats = await Promise.all(
      this.options.targets.map((_, i) =>
        this.scraper.scrape(
          i,
          withErrors,
          AbortSignal.any([this.closing.signal, AbortSignal.timeout(timeoutMs)]),
        ),
      ),
    );
    for (const s of stats) if (s.error !== undefined) errors.push(`${s.target}: ${s.error}`);
    this.targetStats = stats;
    this.lastDurationMs = this.now() - started;
    remember(this.recentDurations, this.lastDurationMs);
    if (errors.length === 0) remember(this.answeredDurations, this.lastDurationMs);
    this.lastError = errors.length > 0 ? `scrape failed: ${errors.join('; ')}` : null;
    this.scrapes++;
    // The frame is of the time its counters were read (a scrape answered late, after a stall, is of its answer's time).
    let sampledMs = Number.NEGATIVE_INFINITY;
    for (const s of stats) if (s.sampleTimeMs !== undefined) sampledMs = Math.max(sampledMs, s.sampleTimeMs);
    const done: ScrapeDone = {
      timeMs: Number.isFinite(sampledMs) ? sampledMs : started,
      resetPorts: this.resetPorts,
    };
    this.resetPorts = [];
    for (const listener of this.scrapeListeners) listener(done);
  }

  /** Calls `listener` after every completed scrape. */
  onScrape(listener: (done: ScrapeDone) => void): () => void {
    this.scrapeListeners.add(listener);
    return () => this.scrapeListeners.delete(listener);
  }

  /** Instants and ranges from the in-memory history of this fabric's link directions. */
  timeQueries(index: LinkIndex): EmbeddedTimeQueries {
    let queries = this.histories.get(index);
    if (!queries) {
      queries = new EmbeddedTimeQueries(
        {
          onScrape: (l) => this.onScrape(l),
          // The live rates when both windows pick the newest reading and the one before.
          rates: () =>
            windowsAgree(this.intervalMs, this.historyWindowMs)
              ? this.rates()
              : this.rates(undefined, this.historyWindowMs),
          staleAfterMs: () => this.timing().staleAfterMs,
        },
        index,
        {
          intervalMs: this.intervalMs,
          historySeconds: this.options.historySeconds,
          historyMaxBytes: this.options.historyMaxBytes,
          events: this.options.events,
          // Only the fabric the directory was opened for is kept there.
          historyDir: this.options.historyDir?.index === index ? this.options.historyDir : undefined,
        },
      );
      this.histories.set(index, queries);
    }
    return queries;
  }

  /** The ports' last readings; a physical state read longer ago than the stale time is left out (unknown). */
  async portTotals(keys: readonly string[]): Promise<(PortTotals | null)[]> {
    const since = this.now() - this.timing().staleAfterMs;
    return keys.map((key) => this.readings.latest(key, since));
  }

  /** Rates of every fresh port over `windowMs` (default: the live window, rateWindowMs). */
  rates(_signal?: AbortSignal, windowMs = this.windowMs): Promise<RatesSnapshot> {
    const live = windowMs === this.windowMs;
    const kept = this.lastLive;
    // Read for this scrape, not long before (ports' freshness is decided when rates are read).
    if (
      live &&
      kept !== null &&
      kept.scrape === this.scrapes &&
      this.now() - kept.startedMs <= this.intervalMs / 2
    )
      return kept.snapshot;
    const snapshot = this.ratesOver(windowMs);
    if (live) this.lastLive = { scrape: this.scrapes, startedMs: this.now(), snapshot };
    return snapshot;
  }

  private async ratesOver(windowMs: number): Promise<RatesSnapshot> {
    const nowMs = this.now();
    const { staleAfterMs } = this.timing();
    const { ports, newestMs } = await this.readings.ratesSliced(
      nowMs,
      staleAfterMs,
      windowMs,
      Math.max(staleAfterMs, 2.5 * this.errorIntervalMs),
    );
    const result: RatesSnapshot = {
      timeMs: nowMs,
      ok: this.lastError === null,
      lastSampleAgeSeconds: Number.isFinite(newestMs) ? Math.max(0, (nowMs - newestMs) / 1000) : null,
      staleAfterSeconds: staleAfterMs / 1000,
      ports,
    };
    if (this.lastError) result.error = this.lastError;
    return result;
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    clearTimeout(this.secondScrape);
    this.timer = undefined;
    this.closing.abort();
    await this.inFlight;
    for (const history of this.histories.values()) history.close();
  }
}
