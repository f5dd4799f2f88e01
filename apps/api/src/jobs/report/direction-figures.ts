import type { ReportDirection } from '@fabscope/contracts';
import type { LinkColumn } from '../../store/time-queries.ts';
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

/**
 * Mean, p95, max and time at or above each threshold of known values, each sample standing for `stepSeconds`. A
 * Float64Array is taken as scratch and reordered (directionFigures' own); other values are copied first. The p95 is
 * the value of rank ⌈0.95 n⌉, selected rather than sorted: thousands of directions per report.
 */
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
  const scratch = values instanceof Float64Array ? values : Float64Array.from(values);
  const above = new Array<number>(thresholds.length).fill(0);
  let sum = 0;
  let max = Number.NEGATIVE_INFINITY;
  for (let i = 0; i < n; i++) {
    const v = scratch[i] as number;
    sum += v;
    if (v > max) max = v;
    for (let k = 0; k < thresholds.length; k++)
      if (v >= (thresholds[k] as number)) above[k] = (above[k] as number) + 1;
  }
  const rank = Math.max(0, Math.min(n - 1, Math.ceil(0.95 * n) - 1));
  return {
    mean: sum / n,
    p95: select(scratch, n, rank),
    max,
    secondsAbove: thresholds.map((threshold, k) => ({
      threshold,
      seconds: stepSeconds * (above[k] as number),
    })),
  };
}

/** The value of rank `k` (0-based) among the first `n` of `a` (Hoare's quickselect, reordering them). */
function select(a: Float64Array, n: number, k: number): number {
  let lo = 0;
  let hi = n - 1;
  while (hi > lo) {
    const pivot = a[(lo + hi) >>> 1] as number;
    let i = lo;
    let j = hi;
    while (i <= j) {
      while ((a[i] as number) < pivot) i++;
      while ((a[j] as number) > pivot) j--;
      if (i <= j) {
        const t = a[i] as number;
        a[i++] = a[j] as number;
        a[j--] = t;
      }
    }
    if (k <= j) hi = j;
    else if (k >= i) lo = i;
    else break;
  }
  return a[k] as number;
}

/** Scratch for directionFigures, reused across a report's directions: grown, never shrunk. */
export class FiguresScratch {
  utilization = new Float64Array(0);
  wait = new Float64Array(0);
  fit(n: number): this {
    if (this.utilization.length < n) {
      this.utilization = new Float64Array(n);
      this.wait = new Float64Array(n);
    }
    return this;
  }
}

/** One direction's history (the store's utilization and XmitWait share, NaN unknown) → its figures. */
export function directionFigures(
  history: Pick<LinkColumn, 'timesMs' | 'utilization' | 'transmitWaitFraction'>,
  stepMs: number,
  t: ReportThresholds,
  scratch = new FiguresScratch(),
): DirectionFigures {
  const stepSeconds = stepMs / 1000;
  const { timesMs, utilization: us, transmitWaitFraction: ws } = history;
  const n = timesMs.length;
  const { utilization, wait } = scratch.fit(n);
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
  for (let i = 0; i < n; i++) {
    const u = us[i] as number;
    const w = ws[i] as number;
    const uKnown = !Number.isNaN(u);
    const wKnown = !Number.isNaN(w);
    if (uKnown) utilization[nu++] = u;
    if (wKnown) wait[nw++] = w;
    if (!uKnown && !wKnown) {
      run = 0;
      continue;
    }
    known++;
    const score = (uKnown ? u : 0) + (wKnown ? w : 0);
    if (score > worst) {
      worst = score;
      worstMs = timesMs[i] as number;
    }
    const hot = (uKnown && u >= t.hotUtilization) || (wKnown && w >= t.hotTransmitWait);
    if (!hot) {
      run = 0;
      continue;
    }
    behind++;
    if (run === 0) runFrom = timesMs[i] as number;
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
