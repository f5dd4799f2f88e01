/**
 * Rates of cumulative counters between two readings: the one place a counter delta becomes a
 * rate, for the fabric collector (its per-sweep rates at the edge) and the API's embedded store.
 */

/**
 * Values a narrow counter sticks at when it saturates (basic IB PortCounters stop at 2^32 − 1
 * instead of wrapping; data counters are read × 4 as bytes). A counter that stays there is unknown.
 */
export const SATURATION_CEILINGS: ReadonlySet<number> = new Set([2 ** 32 - 1, 4 * (2 ** 32 - 1)]);

/** A data rate above this multiple of the port's link data rate is a spike, not traffic. */
export const DATA_RATE_SPIKE_FACTOR = 1.5;

export interface CounterRateLimits {
  /**
   * The fastest the counter can physically move (e.g. 1.5 × the link's bytes/s): a faster rate is
   * a spike from a counter that was swapped or reset and climbed past its old value, not traffic.
   */
  maxPerSecond?: number | undefined;
}

/**
 * Per-second rate of a cumulative counter between two readings, or null when the period cannot
 * be trusted: the counter went backwards (device restart, a clear by another tool, a 32-bit wrap
 * read as a drop), it sits saturated at a 32-bit ceiling, it moved faster than physically
 * possible, or no time passed. A gap is honest; a negative rate or a spike is not.
 */
export function counterRate(
  previous: number,
  current: number,
  seconds: number,
  limits: CounterRateLimits = {},
): number | null {
  if (!(seconds > 0) || !Number.isFinite(seconds) || !Number.isFinite(previous) || !Number.isFinite(current))
    return null;
  if (current < previous) return null;
  if (current === previous && SATURATION_CEILINGS.has(current)) return null;
  const rate = (current - previous) / seconds;
  if (
    limits.maxPerSecond !== undefined &&
    Number.isFinite(limits.maxPerSecond) &&
    rate > limits.maxPerSecond
  ) {
    return null;
  }
  return rate;
}
