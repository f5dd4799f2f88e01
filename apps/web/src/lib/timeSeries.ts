/**
 * Pure helpers behind the time-series charts: API points to uPlot's column arrays (x in Unix
 * seconds, unknown values kept as null so the line breaks instead of dropping to zero), event
 * annotations placed in label rows that do not overlap, and a text description of a series.
 */

import { parseInstant } from './timeRange.ts';

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

/**
 * Joins several series sampled at possibly different times onto one x axis (uPlot needs one);
 * a series without a point at some x gets null there.
 */
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

export interface AnnotationInput {
  /** Unix seconds. */
  x: number;
  label: string;
}

export interface PlacedAnnotation extends AnnotationInput {
  /** Pixel position on the plot. */
  px: number;
  /** Label row from the top (0, 1, …), or -1: marker only, no room for its label. */
  row: number;
}

/**
 * Places event labels left to right: each goes in the first row where it does not overlap the
 * previous label of that row; when every row is taken, the marker is drawn without a label.
 * Events outside the plot are dropped. `toPx` maps an x value to pixels (uPlot's valToPos).
 */
export function placeAnnotations<A extends AnnotationInput>(
  events: readonly A[],
  toPx: (x: number) => number,
  options: { widthPx: number; rows: number; charPx: number; gapPx?: number },
): (A & PlacedAnnotation)[] {
  const gap = options.gapPx ?? 8;
  const rowEnds: number[] = new Array(options.rows).fill(Number.NEGATIVE_INFINITY);
  return [...events]
    .map((e) => ({ ...e, px: toPx(e.x) }))
    .filter((e) => Number.isFinite(e.px) && e.px >= 0 && e.px <= options.widthPx)
    .sort((a, b) => a.px - b.px)
    .map((e) => {
      const width = e.label.length * options.charPx;
      // A label near the right edge is drawn to the left of its marker.
      const start = e.px + width + 4 > options.widthPx ? e.px - width - 4 : e.px + 4;
      const row = rowEnds.findIndex((end) => start >= end + gap);
      if (row >= 0) rowEnds[row] = start + width;
      return { ...e, row };
    });
}

export interface SeriesDescription {
  min: number;
  max: number;
  first: number;
  last: number;
  /** Points with a value. */
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
