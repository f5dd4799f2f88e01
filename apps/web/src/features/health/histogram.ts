import { scaleBand, scaleLinear } from 'd3-scale';

/** opatop-style utilization histogram: ten buckets of 10 %. */

export const BUCKET_COUNT = 10;

export function bucketLabel(index: number): string {
  return `${index * 10}–${(index + 1) * 10} %`;
}

export interface HistogramBar {
  index: number;
  label: string;
  count: number;
  x: number;
  width: number;
  y: number;
  height: number;
}

export interface HistogramGeometry {
  bars: HistogramBar[];
  max: number;
  total: number;
}

/** Bars for `counts` (10 buckets) in a `width` × `height` plot area; rejects other bucket counts. */
export function histogramBars(counts: readonly number[], width: number, height: number): HistogramGeometry {
  if (counts.length !== BUCKET_COUNT) {
    throw new RangeError(`histogram: expected ${BUCKET_COUNT} buckets, got ${counts.length}`);
  }
  const safe = counts.map((c) => (Number.isFinite(c) && c > 0 ? c : 0));
  const max = Math.max(0, ...safe);
  const x = scaleBand<number>()
    .domain(safe.map((_, i) => i))
    .range([0, width])
    .padding(0.15);
  const y = scaleLinear()
    .domain([0, Math.max(1, max)])
    .range([height, 0]);
  const bars = safe.map((count, index) => ({
    index,
    label: bucketLabel(index),
    count,
    x: x(index) ?? 0,
    width: x.bandwidth(),
    y: y(count),
    height: height - y(count),
  }));
  return { bars, max, total: safe.reduce((a, b) => a + b, 0) };
}
