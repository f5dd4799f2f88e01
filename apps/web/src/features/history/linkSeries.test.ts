import type { LinkHistory } from '@fabscope/contracts';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type LinkMeasure, linkChart } from './linkSeries.ts';

const t = (s: number) => new Date(Date.UTC(2026, 10, 29, 18, 0, s)).toISOString();
const point = (s: number, utilization: number | null, wait: number | null) => ({
  time: t(s),
  utilization,
  bytesPerSecond: null,
  transmitWaitFraction: wait,
});
const BOTH = new Set<LinkMeasure>(['utilization', 'wait']);
const COLORS = ['blue', 'orange'];

const history: LinkHistory['series'] = [
  { id: 'edge1/4->core2/1', points: [point(0, 0.99, 0.5), point(1, 0.99, null), point(2, 0.99, 0)] },
  { id: 'edge1/3->core1/1', points: [point(0, 0.99, 0), point(1, null, 0), point(2, 0.99, 0)] },
];

describe('the link history chart’s lines', () => {
  it('draws utilization and wait per direction on one axis: 99 % with 50 % wait differs from 99 % with none', () => {
    const { columns, series } = linkChart(history, BOTH, COLORS);
    expect(series.map((s) => s.label)).toEqual([
      'edge1/4 → core2/1 utilization',
      'edge1/4 → core2/1 wait',
      'edge1/3 → core1/1 utilization',
      'edge1/3 → core1/1 wait',
    ]);
    expect(series.map((s) => s.color)).toEqual(['blue', 'blue', 'orange', 'orange']);
    expect(series[1]?.dash).toBeDefined();
    expect(series[0]?.dash).toBeUndefined();
    const [xs, ...ys] = columns;
    expect(xs).toHaveLength(3);
    expect(ys[0]).toEqual([0.99, 0.99, 0.99]);
    expect(ys[1]).toEqual([0.5, null, 0]);
    expect(ys[3]).toEqual([0, 0, 0]);
  });

  it('keeps unknown as a gap (null), never 0', () => {
    const [, , wait, util] = linkChart(history, BOTH, COLORS).columns;
    expect(wait?.[1]).toBeNull();
    expect(util?.[1]).toBeNull();
  });

  it('draws only the measures chosen', () => {
    const waitOnly = linkChart(history, new Set<LinkMeasure>(['wait']), COLORS);
    expect(waitOnly.series.map((s) => s.label)).toEqual(['edge1/4 → core2/1 wait', 'edge1/3 → core1/1 wait']);
    expect(waitOnly.columns[1]).toEqual([0.5, null, 0]);
    const none = linkChart(history, new Set(), COLORS);
    expect(none.series).toEqual([]);
    expect(none.columns).toHaveLength(1);
  });

  it('draws errors/s on a second axis, dotted; a store that keeps none leaves a gap, never 0', () => {
    const withErrors: LinkHistory['series'] = [
      {
        id: 'edge1/4->core2/1',
        points: [
          { ...point(0, 0.99, 0), errorsPerSecond: 12.5 },
          { ...point(1, 0.99, 0), errorsPerSecond: null },
          point(2, 0.99, 0),
        ],
      },
    ];
    const { columns, series } = linkChart(
      withErrors,
      new Set<LinkMeasure>(['utilization', 'errors']),
      COLORS,
    );
    expect(series.map((s) => s.label)).toEqual([
      'edge1/4 → core2/1 utilization',
      'edge1/4 → core2/1 errors/s',
    ]);
    expect(series[1]).toMatchObject({ scale: 'perSecond', color: 'blue' });
    expect(series[1]?.dash).toBeDefined();
    expect(series[0]?.scale).toBeUndefined();
    expect(columns[2]).toEqual([12.5, null, null]);
  });

  it('has one column per line, each as long as the shared time axis', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.array(
            fc.record({
              s: fc.integer({ min: 0, max: 30 }),
              u: fc.option(fc.double({ min: 0, max: 1, noNaN: true })),
              w: fc.option(fc.double({ min: 0, max: 1, noNaN: true })),
            }),
            { maxLength: 8 },
          ),
          { maxLength: 4 },
        ),
        (raw) => {
          const input = raw.map((ps, i) => ({
            id: `a/${i}->b/${i}`,
            points: ps.map((p) => point(p.s, p.u, p.w)),
          }));
          const { columns, series } = linkChart(input, BOTH, COLORS);
          expect(columns.length).toBe(series.length + 1);
          for (const c of columns.slice(1)) expect(c).toHaveLength(columns[0].length);
        },
      ),
    );
  });
});
