/** The chart's newest points from the live stream, between the store's less frequent answers. */

/** One stream message's host transmit total. */
export interface TailPoint {
  timeMs: number;
  /** Null when unknown (never 0 for unknown). */
  bytesPerSecond: number | null;
}

/** A window following now is asked again when its end has moved by this share of its span. */
export const ASK_SHARE = 0.1;

/** How long of messages the tail keeps: more than goes between two questions of any preset. */
export const TAIL_KEPT_MS = 15 * 60_000;

/**
 * How often (ms) a following window of `spanMs` is asked: a share of it, at least `followMs` or a step; a long span
 * (24 h, 7 d) at most every half of what the tail keeps, so the tail always reaches back to the last answer.
 */
export function askEveryMs(spanMs: number, stepSeconds: number, followMs: number): number {
  return Math.max(followMs, stepSeconds * 1000, Math.min(Math.round(spanMs * ASK_SHARE), TAIL_KEPT_MS / 2));
}

/** The asked window's end: the last whole `everyMs` before `followedMs`, or the tail's start if later. */
export function askedEndMs(followedMs: number, everyMs: number, tailStartMs: number | null): number {
  const boundary = Math.floor(followedMs / everyMs) * everyMs;
  return tailStartMs === null ? boundary : Math.max(boundary, tailStartMs);
}

/** `tail` plus `point`; an older message or a gap over `gapMs` restarts it; old points are dropped. */
export function appendTail(
  tail: readonly TailPoint[],
  point: TailPoint,
  gapMs: number,
): readonly TailPoint[] {
  const last = tail[tail.length - 1];
  if (last !== undefined && point.timeMs === last.timeMs) return tail;
  if (last === undefined || point.timeMs < last.timeMs || point.timeMs - last.timeMs > gapMs) return [point];
  const oldest = point.timeMs - TAIL_KEPT_MS;
  let from = 0;
  while (from < tail.length && (tail[from] as TailPoint).timeMs < oldest) from++;
  return [...tail.slice(from), point];
}

/** The chart's columns: the store's points, then the tail's after the store's last known value. */
export function withTail(
  xs: readonly number[],
  ys: readonly (number | null)[],
  tail: readonly TailPoint[],
  stepSeconds: number,
): [number[], (number | null)[]] {
  let known = ys.length - 1;
  while (known >= 0 && ys[known] === null) known--;
  const lastKnownS = known >= 0 ? (xs[known] as number) : Number.NEGATIVE_INFINITY;
  const first = tail.findIndex((p) => p.timeMs / 1000 > lastKnownS);
  if (first === -1) return [xs.slice(), ys.slice()];
  const firstS = (tail[first] as TailPoint).timeMs / 1000;
  let kept = 0;
  while (kept < xs.length && (xs[kept] as number) < firstS) kept++;
  const outXs = xs.slice(0, kept);
  const outYs = ys.slice(0, kept);
  let lastS = Number.NEGATIVE_INFINITY;
  for (let i = first; i < tail.length; i++) {
    const p = tail[i] as TailPoint;
    const s = p.timeMs / 1000;
    // A tick late or early by a little is still the next step's point.
    if (s - lastS < stepSeconds * 0.9) continue;
    outXs.push(s);
    outYs.push(p.bytesPerSecond);
    lastS = s;
  }
  return [outXs, outYs];
}
