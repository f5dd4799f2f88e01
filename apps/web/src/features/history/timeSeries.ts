/** API points to uPlot columns (unknown kept as null, so the line breaks), and series descriptions. */

import { parseInstant } from '../../lib/timeRange.ts';

/** uPlot's data: x values, then one array per series, all the same length. */
export type ChartColumns = [number[], ...(number | null)[][]];

/** Builds uPlot columns from points sorted or not; points whose time cannot be read are skipped. */
export function toChartColumns<P extends { time: string | number }>(
  points: readonly P[],
  values: readonly ((point: P) => number | null | undefined)[],
): ChartColumns {
  const rows = points
    .map((p) => ({ p, t: parseInstant(p.time) }))
    .filter((r): r is { p: P; t: number } => r.t !== null)
    .sort((a, b) => a.t - b.t);
  const xs = rows.map((r) => r.t / 1000);
  const ys = values.map((value) =>
    rows.map((r) => {
      const v = value(r.p);
      return typeof v === 'number' && Number.isFinite(v) ? v : null;
    }),
  );
  return [xs, ...ys];
}

/** The points of `xs`/`ys` (x in seconds, ascending) within `window`: the same arrays when all are. */
export function columnsWithin(
  xs: number[],
  ys: (number | null)[],
  window: { fromMs: number; toMs: number },
): [number[], (number | null)[]] {
  const from = window.fromMs / 1000;
  const to = window.toMs / 1000;
  let a = 0;
  while (a < xs.length && (xs[a] as number) < from) a++;
  let b = xs.length;
  while (b > a && (xs[b - 1] as number) > to) b--;
  return a === 0 && b === xs.length ? [xs, ys] : [xs.slice(a, b), ys.slice(a, b)];
}

/** Joins series sampled at different times onto one x axis; a missing point is null. */
export function alignSeries(
  series: readonly { xs: readonly number[]; ys: readonly (number | null)[] }[],
): ChartColumns {
  const all = new Set<number>();
  for (const s of series) for (const x of s.xs) all.add(x);
  const xs = [...all].sort((a, b) => a - b);
  const index = new Map(xs.map((x, i) => [x, i]));
  const columns = series.map((s) => {
    const column: (number | null)[] = new Array(xs.length).fill(null);
    s.xs.forEach((x, i) => {
      const at = index.get(x);
      if (at !== undefined) column[at] = s.ys[i] ?? null;
    });
    return column;
  });
  return [xs, ...columns];
}

export interface SeriesDescription {
  min: number;
  max: number;
  first: number;
  last: number;
  known: number;
}

/** Smallest, largest, first and last known values; null when nothing is known. */
export function describeSeries(values: readonly (number | null)[]): SeriesDescription | null {
  const known = values.filter((v): v is number => v !== null && Number.isFinite(v));
  if (known.length === 0) return null;
  return {
    min: Math.min(...known),
    max: Math.max(...known),
    first: known[0] as number,
    last: known[known.length - 1] as number,
    known: known.length,
  };
}
