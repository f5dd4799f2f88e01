// When data is stale, decided once for every store and answer: a sample is stale once it is older
// than the newest one could be had collection kept up, with room for two misses.

/** Data older than this (or the store's own limit, or 2.5 sampling intervals, when longer) is stale. */
export const STALE_AFTER_SECONDS = 5;

/** The staleness limit for a sampling interval and the store's own limit (when it gives one). */
export function staleAfterSeconds(intervalMs: number, storeLimitSeconds?: number): number {
  return Math.max(STALE_AFTER_SECONDS, (2.5 * intervalMs) / 1000, storeLimitSeconds ?? 0);
}

/** A Prometheus's samples: up to an interval and a scrape old, stale after three intervals. */
export function prometheusStaleAfterSeconds(scrapeIntervalMs: number): number {
  return Math.max(STALE_AFTER_SECONDS, (3 * scrapeIntervalMs) / 1000);
}

/**
 * How long the embedded store waits for a scrape and how old a sample may get before it is stale, from the interval and
 * how long scrapes take (a slow scrape is not a stale one; one that stops is).
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

/** `recentDurationMs`: the longest of the last few completed scrapes (null before the first). */
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
