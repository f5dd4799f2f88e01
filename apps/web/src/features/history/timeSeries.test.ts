import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { alignSeries, columnsWithin, describeSeries, toChartColumns } from './timeSeries.ts';

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

describe('chart columns within a window', () => {
  it('are the points whose time is within it, in order, with their values', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.integer({ min: 0, max: 1000 }), { maxLength: 30 }),
        fc.integer({ min: -10, max: 1010 }),
        fc.integer({ min: 0, max: 500 }),
        (times, from, span) => {
          const xs = [...times].sort((a, b) => a - b);
          const ys = xs.map((x) => (x % 3 === 0 ? null : x * 2));
          const [inXs, inYs] = columnsWithin(xs, ys, { fromMs: from * 1000, toMs: (from + span) * 1000 });
          const expected = xs.filter((x) => x >= from && x <= from + span);
          expect(inXs).toEqual(expected);
          expect(inYs).toEqual(expected.map((x) => (x % 3 === 0 ? null : x * 2)));
        },
      ),
    );
  });
});
