import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { COLOR_STEPS, legendStops, UNKNOWN_COLOR, utilizationColor, utilizationScale } from './colors.ts';

const channels = (color: string): number[] => (color.match(/\d+/g) ?? []).map(Number);

describe('utilization colours', () => {
  it("is the scale's colour, or one unit of rgb off, for any utilization, and the same for a value and its step", () => {
    fc.assert(
      fc.property(fc.double({ min: -0.5, max: 1.5, noNaN: true }), (fraction) => {
        const color = utilizationColor(fraction);
        const exact = channels(utilizationScale(fraction));
        expect(color).toMatch(/^rgb\(\d+, \d+, \d+\)$/);
        channels(color).forEach((v, i) => {
          expect(Math.abs(v - (exact[i] ?? 0))).toBeLessThanOrEqual(1);
        });
        const step = Math.round(Math.min(1, Math.max(0, fraction)) * COLOR_STEPS) / COLOR_STEPS;
        expect(utilizationColor(step)).toBe(color);
      }),
      { numRuns: 2000 },
    );
  });

  it('maps 0..1 to distinct colours and clamps outside', () => {
    expect(utilizationColor(0)).not.toBe(utilizationColor(1));
    expect(utilizationColor(-1)).toBe(utilizationColor(0));
    expect(utilizationColor(2)).toBe(utilizationColor(1));
    expect(utilizationScale.domain()).toEqual([0, 1]);
  });

  it('lets idle links recede: idle is darker than half load, and saturated links are red', () => {
    const luminance = (color: string) => {
      const [r, g, b] = (color.match(/\d+/g) ?? []).map(Number);
      return 0.2126 * (r ?? 0) + 0.7152 * (g ?? 0) + 0.0722 * (b ?? 0);
    };
    expect(luminance(utilizationColor(0))).toBeLessThan(luminance(utilizationColor(0.5)));
    const [r, g] = (utilizationColor(1).match(/\d+/g) ?? []).map(Number);
    expect(r).toBeGreaterThan(200);
    expect(g).toBeLessThan(80);
  });

  it('gives every tenth of load its own rgb() colour', () => {
    const tenths = Array.from({ length: 11 }, (_, i) => utilizationColor(i / 10));
    for (const color of tenths) expect(color).toMatch(/^rgb\(\d+, \d+, \d+\)$/);
    expect(new Set(tenths).size).toBe(11);
  });

  it('greys unknown values instead of painting them as idle', () => {
    expect(utilizationColor(null)).toBe(UNKNOWN_COLOR);
    expect(utilizationColor(Number.NaN)).toBe(UNKNOWN_COLOR);
    expect(utilizationColor(null)).not.toBe(utilizationColor(0));
  });

  it('keeps idle (0 %) and unknown/stale apart: a blue of its own against a neutral grey', () => {
    const rgb = (color: string): number[] => {
      if (color.startsWith('#')) return [1, 3, 5].map((i) => Number.parseInt(color.slice(i, i + 2), 16));
      return (color.match(/\d+/g) ?? []).map(Number);
    };
    const [ir = 0, ig = 0, ib = 0] = rgb(utilizationColor(0));
    const [ur = 0, ug = 0, ub = 0] = rgb(UNKNOWN_COLOR);
    // Idle is clearly blue; unknown has no hue.
    expect(ib - Math.max(ir, ig)).toBeGreaterThan(40);
    expect(Math.max(ur, ug, ub) - Math.min(ur, ug, ub)).toBeLessThan(25);
    expect(Math.hypot(ir - ur, ig - ug, ib - ub)).toBeGreaterThan(60);
  });

  it('builds legend stops from 0 to 100 %', () => {
    const stops = legendStops(5);
    expect(stops.map((s) => s.offset)).toEqual([0, 0.25, 0.5, 0.75, 1]);
    expect(stops[4]?.color).toBe(utilizationColor(1));
    expect(() => legendStops(1)).toThrow(/count/);
  });
});
