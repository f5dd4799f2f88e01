// When data is stale: decided here, once, for every store and every answer. Three readings of one
// policy — a sample is stale once it is older than the newest one could be had collection kept
// up (its interval, and how long collection takes), with room for two misses:
// - the embedded store's own samples (scrapeTiming: from its interval and its scrapes' durations);
// - a Prometheus's samples (prometheusStaleAfterSeconds: an interval and a scrape, three times);
// - what /health and every stream message say (staleAfterSeconds: at least 5 s, two and a half
//   sampling intervals, or the store's own limit when it is longer).

/**
 * Data older than this is stale on screen and in /health, or than the store's own limit when
 * that is longer (an embedded store scraping a big fabric every 10 s), or than two and a half
 * sampling intervals.
 */
export const STALE_AFTER_SECONDS = 5;

/** The staleness limit for a sampling interval and the store's own limit (when it gives one). */
export function staleAfterSeconds(intervalMs: number, storeLimitSeconds?: number): number {
  return Math.max(STALE_AFTER_SECONDS, (2.5 * intervalMs) / 1000, storeLimitSeconds ?? 0);
}

/**
 * A Prometheus's samples: up to an interval and a scrape old, stale after three intervals (5 s at
 * least, as at 1 s).
 */
export function prometheusStaleAfterSeconds(scrapeIntervalMs: number): number {
  return Math.max(STALE_AFTER_SECONDS, (3 * scrapeIntervalMs) / 1000);
}

/**
 * How long the embedded store waits for a scrape and how old a sample may get before it is stale,
 * from the configured interval and how long scrapes actually take. A scrape that takes 4 s on a
 * big fabric is not a stale one; a scrape that stops is (its timeout ends it, and its samples age).
 *
 * Scrapes start on the interval's ticks, and a tick that finds one still running is skipped, so a
 * scrape of duration D starts every `period` = the interval × ⌈D / interval⌉. Samples are stamped
 * at the start of their scrape, so the newest one is up to `period + D` old just before the next
 * lands. Stale is older than three periods and one scrape (two scrapes missed), plus 0.5 s of
 * slack: 3.5 s at 1 s with fast scrapes, as before.
 */
export interface ScrapeTiming {
  /** Time between scrape starts. */
  periodMs: number;
  /** A scrape (request and answer) is aborted after this long. */
  timeoutMs: number;
  /** A series not seen for this long is stale. */
  staleAfterMs: number;
}

/** Slack beyond the expected age before a sample is stale. */
export const STALE_SLACK_MS = 500;

/**
 * `recentDurationMs`: the longest of the last few completed scrapes (null before the first).
 * Fixed values in `overrides` win over the derived ones.
 */
export function scrapeTiming(
  intervalMs: number,
  recentDurationMs: number | null,
  overrides: { timeoutMs?: number | undefined; staleAfterMs?: number | undefined } = {},
): ScrapeTiming {
  if (!(intervalMs > 0)) throw new RangeError(`scrape interval must be > 0, got ${intervalMs}`);
  // Whole milliseconds: AbortSignal.timeout takes integers only.
  const duration = recentDurationMs !== null && recentDurationMs > 0 ? Math.ceil(recentDurationMs) : 0;
  const periodMs = intervalMs * (Math.floor(duration / intervalMs) + 1);
  return {
    periodMs,
    timeoutMs: overrides.timeoutMs ?? Math.max(5 * intervalMs, 3 * duration),
    staleAfterMs: overrides.staleAfterMs ?? 3 * periodMs + duration + STALE_SLACK_MS,
  };
}
