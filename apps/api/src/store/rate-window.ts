import { durationMs } from '../lib/time-params.ts';

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
  if (!(windowMs > 0)) throw new Error(`not a PromQL duration: "${window}"`);
  const quarterMs = Math.max(1, Math.floor(windowMs / 4));
  const has = (offsetMs: number) =>
    `count_over_time(${sel}[${quarterMs}ms]${offsetMs > 0 ? ` offset ${offsetMs}ms` : ''}) > 0`;
  return [has(windowMs), has(windowMs - quarterMs), has(0)].join(' and ');
}

/**
 * A counter's rate over a full window, with a gap where the counter went backwards (device restart, another tool's
 * clear, a 32-bit wrap): rate() would count the whole new value as traffic there, a spike.
 */
export function rateQuery(names: readonly string[], window: string): string {
  const sel = selector(names);
  return `rate(${sel}[${window}]) unless resets(${sel}[${window}]) > 0 and ${fullWindow(sel, window)}`;
}
