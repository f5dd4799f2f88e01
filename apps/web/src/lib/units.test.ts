import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MISSING } from './format.ts';
import { formatCompactCount, formatCount, formatRate, groupDigits, parseRate, scaleRate } from './units.ts';

const rate = fc.double({ min: 0, max: 1e19, noNaN: true, noDefaultInfinity: true });

describe('formatRate', () => {
  it('scales to an SI prefix instead of printing thousands of GB/s', () => {
    expect(formatRate(45_673.88e9, 'bytes')).toBe('45.67 TB/s');
    expect(formatRate(12.38e9, 'bytes')).toBe('12.38 GB/s');
    expect(formatRate(12.3e9, 'bits')).toBe('98.40 Gb/s');
    expect(formatRate(250e6, 'bytes')).toBe('250.0 MB/s');
    expect(formatRate(0, 'bytes')).toBe('0 B/s');
    expect(formatRate(999.999e9, 'bytes')).toBe('1.00 TB/s');
  });

  it('shows unknown as a dash, never as zero', () => {
    for (const v of [null, undefined, Number.NaN, Number.POSITIVE_INFINITY])
      expect(formatRate(v, 'bytes')).toBe(MISSING);
  });

  it('never prints more than three digits before the point, nor a separator', () => {
    fc.assert(
      fc.property(rate, fc.constantFrom('bytes' as const, 'bits' as const), (v, unit) => {
        const { value } = scaleRate(v, unit);
        return /^\d{1,3}(\.\d{1,2})?$/.test(value) || v * 8 >= 1e21;
      }),
    );
  });

  it('reads back within 0.5 % of the true rate, in either unit', () => {
    fc.assert(
      fc.property(rate, fc.constantFrom('bytes' as const, 'bits' as const), (v, unit) => {
        const back = parseRate(formatRate(v, unit));
        if (back === null) return false;
        // Below 1 B/s the number is printed to 0.01 B/s.
        return Math.abs(back - v) <= Math.max(v * 0.005, 0.005);
      }),
    );
  });

  it('shows bits as eight times the bytes', () => {
    fc.assert(
      fc.property(fc.double({ min: 1, max: 1e15, noNaN: true }), (v) => {
        const bytes = parseRate(formatRate(v, 'bytes')) ?? Number.NaN;
        const bits = (parseRate(formatRate(v, 'bits')) ?? Number.NaN) * 8;
        // Both read back to the same rate, within their rounding.
        return Math.abs(bits - v * 8) <= v * 8 * 0.005 && Math.abs(bytes - v) <= v * 0.005;
      }),
    );
  });
});

describe('formatCompactCount', () => {
  it('fits a histogram bar: at most four characters', () => {
    expect(formatCompactCount(999)).toBe('999');
    expect(formatCompactCount(1234)).toBe('1.2k');
    expect(formatCompactCount(41_472)).toBe('41k');
    expect(formatCompactCount(165_888)).toBe('165k');
    expect(formatCompactCount(1_999_999)).toBe('1.9M');
  });

  it('never exceeds four characters nor the true count', () => {
    const factor: Record<string, number> = { '': 1, k: 1e3, M: 1e6, G: 1e9 };
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 999_999_999_999 }), (n) => {
        const s = formatCompactCount(n);
        const m = /^(\d+(?:\.\d)?)([kMG]?)$/.exec(s);
        if (!m || s.length > 4) return false;
        const shown = Number(m[1]) * (factor[m[2] ?? ''] ?? 1);
        // Rounded down: at most the count, and within 10 % of it.
        return shown <= n + 1e-6 && shown >= n * 0.9 - 1;
      }),
    );
  });
});

describe('digit grouping', () => {
  it('groups thousands with commas', () => {
    expect(formatCount(13_824)).toBe('13,824');
    expect(formatCount(27_648)).toBe('27,648');
    expect(formatCount(999)).toBe('999');
    expect(groupDigits(1234567.891, 2)).toBe('1,234,567.89');
    expect(formatCount(null)).toBe(MISSING);
  });

  it('keeps the integer: separators every three digits from the right, nothing else', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }), (n) => {
        const s = formatCount(n);
        return /^\d{1,3}(,\d{3})*$/.test(s) && Number(s.replaceAll(',', '')) === n;
      }),
    );
  });
});
