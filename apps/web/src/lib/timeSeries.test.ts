import { describe, expect, it } from 'vitest';
import { alignSeries, describeSeries, toChartColumns } from './timeSeries.ts';

describe('chart columns', () => {
  it('sorts by time, converts to Unix seconds and keeps unknown values as null (never 0)', () => {
    const points = [
      { time: '2026-01-01T00:00:02Z', v: 5 },
      { time: '2026-01-01T00:00:00Z', v: null },
      { time: 'garbage', v: 9 },
      { time: '2026-01-01T00:00:01Z', v: Number.NaN },
    ];
    const base = Date.parse('2026-01-01T00:00:00Z') / 1000;
    expect(toChartColumns(points, [(p) => p.v])).toEqual([
      [base, base + 1, base + 2],
      [null, null, 5],
    ]);
  });

  it('aligns series sampled at different times on one x axis', () => {
    const aligned = alignSeries([
      { xs: [1, 3], ys: [10, 30] },
      { xs: [2, 3], ys: [0.2, null] },
    ]);
    expect(aligned).toEqual([
      [1, 2, 3],
      [10, null, 30],
      [null, 0.2, null],
    ]);
  });
});

describe('series description', () => {
  it('reads min, max, first and last of the known values', () => {
    expect(describeSeries([null, 12.4e9, 24.6e9, null, 24.5e9])).toEqual({
      min: 12.4e9,
      max: 24.6e9,
      first: 12.4e9,
      last: 24.5e9,
      known: 3,
    });
    expect(describeSeries([null, null])).toBeNull();
  });
});
