import type { ReportDirection } from '@fabscope/contracts';
import type { LinkPoint } from '../../store/time-queries.ts';
import type { ReportThresholds } from './thresholds.ts';

type Stats = ReportDirection['utilization'];

/** A direction's history over the window, reduced: what the report says of it and where to look. */
export interface DirectionFigures {
  utilization: Stats;
  transmitWait: Stats;
  knownSeconds: number;
  behindSeconds: number;
  /** The sample it was worst at (highest utilization + XmitWait), null when nothing was known. */
  worstMs: number | null;
  /** The first sample of its longest congested run, null when never congested. */
  behindFromMs: number | null;
}

/** Mean, p95, max and time at or above each threshold of known values, each sample standing for `stepSeconds`. */
export function statsOf(
  values: ArrayLike<number>,
  thresholds: readonly number[],
  stepSeconds: number,
): Stats {
  const n = values.length;
  if (n === 0)
    return {
      mean: null,
      p95: null,
      max: null,
      secondsAbove: thresholds.map((threshold) => ({ threshold, seconds: 0 })),
    };
  // Sorted in place when given a typed array of its own (directionFigures' scratch), else copied.
  const sorted = (values instanceof Float64Array ? values : Float64Array.from(values)).sort();
  let sum = 0;
  for (let i = 0; i < n; i++) sum += sorted[i] as number;
  const rank = Math.min(n - 1, Math.ceil(0.95 * n) - 1);
  return {
    mean: sum / n,
    p95: sorted[Math.max(0, rank)] as number,
    max: sorted[n - 1] as number,
    secondsAbove: thresholds.map((threshold) => ({
      threshold,
      seconds: stepSeconds * (n - lowerBound(sorted, threshold)),
    })),
  };
}

/** The first index of `sorted` whose value is ≥ `x`. */
function lowerBound(sorted: Float64Array, x: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((sorted[mid] as number) < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** One direction's points (the store's utilization and XmitWait share, unknown as null) → its figures. */
export function directionFigures(
  points: readonly LinkPoint[],
  stepMs: number,
  t: ReportThresholds,
): DirectionFigures {
  const stepSeconds = stepMs / 1000;
  const utilization = new Float64Array(points.length);
  const wait = new Float64Array(points.length);
  let nu = 0;
  let nw = 0;
  let known = 0;
  let behind = 0;
  let worst = Number.NEGATIVE_INFINITY;
  let worstMs: number | null = null;
  let run = 0;
  let runFrom = 0;
  let longest = 0;
  let behindFromMs: number | null = null;
  for (const p of points) {
    const u = p.utilization;
    const w = p.transmitWaitFraction;
    if (u !== null) utilization[nu++] = u;
    if (w !== null) wait[nw++] = w;
    if (u === null && w === null) {
      run = 0;
      continue;
    }
    known++;
    const score = (u ?? 0) + (w ?? 0);
    if (score > worst) {
      worst = score;
      worstMs = p.timeMs;
    }
    const hot = (u !== null && u >= t.hotUtilization) || (w !== null && w >= t.hotTransmitWait);
    if (!hot) {
      run = 0;
      continue;
    }
    behind++;
    if (run === 0) runFrom = p.timeMs;
    run++;
    if (run > longest) {
      longest = run;
      behindFromMs = runFrom;
    }
  }
  return {
    utilization: statsOf(utilization.subarray(0, nu), t.utilization, stepSeconds),
    transmitWait: statsOf(wait.subarray(0, nw), t.transmitWait, stepSeconds),
    knownSeconds: known * stepSeconds,
    behindSeconds: behind * stepSeconds,
    worstMs,
    behindFromMs,
  };
}
