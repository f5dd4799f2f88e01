/** A PromQL selector for one or several metric names. */
export function selector(names: readonly string[]): string {
  return names.length === 1 ? (names[0] as string) : `{__name__=~"${names.join('|')}"}`;
}

/**
 * The series of `sel` whose window is full: a sample in its first and last quarters and one in the quarter before it
 * (so a counter that starts at 0 inside the window is not read as starting there).
 */
export function fullWindow(sel: string, window: string): string {
  const windowMs = durationMs(window);
  const quarterMs = Math.max(1, Math.floor(windowMs / 4));
  const has = (offsetMs: number) =>
    `count_over_time(${sel}[${quarterMs}ms]${offsetMs > 0 ? ` offset ${offsetMs}ms` : ''}) > 0`;
  return [has(windowMs), has(windowMs - quarterMs), has(0)].join(' and ');
}

/**
 * The rate of a counter over the window, except for series whose counter went backwards in it
 * (device restart, a clear by another tool, a 32-bit wrap): rate() would count the whole new value
 * as traffic there (a spike), so the period is left out, a gap; and only where the window is full.
 */
export function rateQuery(names: readonly string[], window: string): string {
  const sel = selector(names);
  return `rate(${sel}[${window}]) unless resets(${sel}[${window}]) > 0 and ${fullWindow(sel, window)}`;
}

/** Milliseconds of a PromQL duration such as `5s`, `500ms`, `1m`, `1m30s`. */
export function durationMs(duration: string): number {
  const units: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };
  let total = 0;
  const rest = duration.replace(/(\d+)(ms|s|m|h|d)/g, (_all, n: string, unit: string) => {
    total += Number(n) * (units[unit] ?? 0);
    return '';
  });
  if (rest !== '' || total <= 0) throw new Error(`not a PromQL duration: "${duration}"`);
  return total;
}
