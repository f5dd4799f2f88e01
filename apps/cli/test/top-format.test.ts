import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { age, clock, count, fit, padEnd, padStart, percent, si, UNKNOWN } from '../src/top/format.ts';

describe('fabscope top number formatting', () => {
  it('scales by powers of 1000 with three significant digits and groups digits', () => {
    expect(si(12_345_678_901, 'B/s')).toBe('12.3 GB/s');
    expect(si(45_673.88e9, 'B/s')).toBe('45.7 TB/s');
    expect(si(755_000, 'p/s')).toBe('755 kp/s');
    expect(si(7.891, 'B/s')).toBe('7.89 B/s');
    expect(si(0, 'B/s')).toBe('0.00 B/s');
    expect(si(999.6, 'B/s')).toBe('1.00 kB/s');
    // Beyond the largest prefix the digits are grouped rather than scaled further.
    expect(si(2.5e24, 'B/s')).toBe('2,500,000 EB/s');
    expect(count(27_648)).toBe('27,648');
  });

  it('shows unknown values as a dash, never as 0', () => {
    for (const value of [null, undefined, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(si(value, 'B/s')).toBe(UNKNOWN);
      expect(count(value)).toBe(UNKNOWN);
      expect(percent(value)).toBe(UNKNOWN);
      expect(age(value)).toBe(UNKNOWN);
    }
    expect(clock(null)).toBe(UNKNOWN);
    expect(clock('not a time')).toBe(UNKNOWN);
  });

  it('percentages, ages and clock times', () => {
    expect(percent(0.9889)).toBe('98.9 %');
    expect(percent(0)).toBe('0.0 %');
    expect(age(0.84)).toBe('0.8 s');
    expect(age(42.4)).toBe('42 s');
    expect(age(185)).toBe('3 min 5 s');
    expect(clock('2026-11-22T22:41:07.123Z')).toBe('22:41:07Z');
  });

  it('cuts text to a width with an ellipsis and pads to exactly that width', () => {
    expect(fit('edge1/4 → core2/1', 10)).toBe('edge1/4 →…');
    expect(fit('short', 10)).toBe('short');
    expect(padStart('99 %', 6)).toBe('  99 %');
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme-ascii' }), fc.integer({ min: 1, max: 200 }), (text, width) => {
        expect([...padEnd(text, width)].length).toBe(width);
        expect([...padStart(text, width)].length).toBe(width);
        const cut = fit(text, width);
        expect([...cut].length).toBeLessThanOrEqual(width);
        if ([...text].length <= width) expect(cut).toBe(text);
        else expect(cut.endsWith('…')).toBe(true);
      }),
    );
  });
});
