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
