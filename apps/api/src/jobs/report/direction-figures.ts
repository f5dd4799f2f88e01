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
  values: readonly number[],
  thresholds: readonly number[],
  stepSeconds: number,
): Stats {
  if (values.length === 0)
    return {
      mean: null,
      p95: null,
      max: null,
      secondsAbove: thresholds.map((threshold) => ({ threshold, seconds: 0 })),
    };
  const sorted = Float64Array.from(values).sort();
  let sum = 0;
  for (const v of sorted) sum += v;
  const rank = Math.min(sorted.length - 1, Math.ceil(0.95 * sorted.length) - 1);
  return {
    mean: sum / sorted.length,
    p95: sorted[Math.max(0, rank)] as number,
    max: sorted[sorted.length - 1] as number,
    secondsAbove: thresholds.map((threshold) => ({
      threshold,
      seconds: stepSeconds * (sorted.length - lowerBound(sorted, threshold)),
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
  const utilization: number[] = [];
  const wait: number[] = [];
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
    if (u !== null) utilization.push(u);
    if (w !== null) wait.push(w);
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
    utilization: statsOf(utilization, t.utilization, stepSeconds),
    transmitWait: statsOf(wait, t.transmitWait, stepSeconds),
    knownSeconds: known * stepSeconds,
    behindSeconds: behind * stepSeconds,
    worstMs,
    behindFromMs,
  };
}
