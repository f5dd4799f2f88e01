/**
 * Per-second rate of a cumulative counter between two readings, or null when the period cannot
 * be trusted: the counter went backwards (device restart, a clear by another tool, a 32-bit wrap
 * read as a drop) or no time passed. A gap is honest; a negative rate or a spike is not.
 */
export function counterRate(previous: number, current: number, seconds: number): number | null {
  if (!(seconds > 0) || !Number.isFinite(previous) || !Number.isFinite(current)) return null;
  if (current < previous) return null;
  return (current - previous) / seconds;
}
