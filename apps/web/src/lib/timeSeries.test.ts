import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { alignSeries, describeSeries, placeAnnotations, toChartColumns } from './timeSeries.ts';

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

describe('annotation placement', () => {
  const toPx = (x: number) => x;
  it('stacks overlapping labels in rows, drops the label (not the marker) when rows run out', () => {
    const placed = placeAnnotations(
      [
        { x: 10, label: 'AR off → on' },
        { x: 20, label: 'traffic started' },
        { x: 30, label: 'fault' },
        { x: 500, label: 'far' },
      ],
      toPx,
      { widthPx: 1000, rows: 2, charPx: 7 },
    );
    expect(placed.map((p) => p.row)).toEqual([0, 1, -1, 0]);
  });

  it('drops events outside the plot and flips labels at the right edge', () => {
    const placed = placeAnnotations(
      [
        { x: -5, label: 'before' },
        { x: 995, label: 'edge' },
      ],
      toPx,
      { widthPx: 1000, rows: 1, charPx: 7 },
    );
    expect(placed).toHaveLength(1);
    expect(placed[0]?.row).toBe(0);
  });

  it('never places two labels of one row on top of each other', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ x: fc.integer({ min: 0, max: 800 }), label: fc.string({ maxLength: 20 }) }), {
          maxLength: 30,
        }),
        (events) => {
          const charPx = 7;
          const placed = placeAnnotations(events, toPx, { widthPx: 800, rows: 3, charPx });
          expect(placed).toHaveLength(events.length);
          for (let row = 0; row < 3; row++) {
            const spans = placed
              .filter((p) => p.row === row)
              .map((p) => {
                const w = p.label.length * charPx;
                const start = p.px + w + 4 > 800 ? p.px - w - 4 : p.px + 4;
                return [start, start + w] as const;
              });
            for (let i = 1; i < spans.length; i++)
              expect(spans[i]?.[0]).toBeGreaterThanOrEqual((spans[i - 1]?.[1] ?? 0) + 8);
          }
        },
      ),
    );
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
