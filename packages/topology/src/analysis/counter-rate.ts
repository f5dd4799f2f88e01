/** The one place a counter delta becomes a rate, for the collector and the API's embedded store. */

/** Where basic IB PortCounters saturate instead of wrapping (data read × 4); stuck there is unknown. */
export const SATURATION_CEILINGS: ReadonlySet<number> = new Set([2 ** 32 - 1, 4 * (2 ** 32 - 1)]);

/** A data rate above this multiple of the port's link data rate is a spike, not traffic. */
export const DATA_RATE_SPIKE_FACTOR = 1.5;

export interface CounterRateLimits {
  /** The fastest the counter can move: faster is a reset counter climbing past its old value, not traffic. */
  maxPerSecond?: number | undefined;
}

/** Per-second rate between two readings, or null when untrustworthy: a gap is honest, a spike is not. */
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
  const max = limits.maxPerSecond;
  return max !== undefined && Number.isFinite(max) && rate > max ? null : rate;
}
