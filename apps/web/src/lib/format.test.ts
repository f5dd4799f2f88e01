import {
  formatGbpsRate,
  formatRate,
  formatRateTicks,
  MISSING,
  parseRate,
  type RateUnit,
  scaleRate,
} from '@fabscope/contracts/units';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  formatAge,
  formatClock,
  formatCompactCount,
  formatCount,
  formatDateTimeField,
  formatDirection,
  formatEnds,
  formatFabricType,
  formatLinkIds,
  formatMpps,
  formatPercent,
  formatPercentValue,
  formatPerSecond,
  formatStore,
  formatTimeTick,
  formatTimeZone,
  groupDigits,
  parseDateTimeField,
} from './format.ts';

const units = fc.constantFrom<RateUnit>('bytes', 'bits');
/** Any finite rate, of either sign, from the smallest to the largest double. */
const anyRate = fc.double({ noNaN: true, noDefaultInfinity: true });
const realisticRate = fc.double({ min: 0, max: 1e19, noNaN: true, noDefaultInfinity: true });

/** Significant digits of a printed number: leading zeros and the point do not count. */
function significantDigits(value: string): number {
  const mantissa = value.replace(/^-/, '').replace(/e.*$/, '').replace('.', '');
  return mantissa.replace(/^0+/, '').length;
}

const PREFIX_EXPONENT: Record<string, number> = {
  '': 0,
  k: 1,
  M: 2,
  G: 3,
  T: 4,
  P: 5,
  E: 6,
  Z: 7,
  Y: 8,
  R: 9,
  Q: 10,
};

describe('formatRate', () => {
  it('scales to an SI prefix instead of printing thousands of GB/s', () => {
    expect(formatRate(45_673.88e9, 'bytes')).toBe('45.67 TB/s');
    expect(formatRate(13_018.5e9, 'bytes')).toBe('13.02 TB/s');
    expect(formatRate(12.38e9, 'bytes')).toBe('12.38 GB/s');
    expect(formatRate(12.3e9, 'bits')).toBe('98.40 Gb/s');
    expect(formatRate(250e6, 'bytes')).toBe('250.0 MB/s');
    expect(formatRate(0, 'bytes')).toBe('0 B/s');
    expect(formatRate(0, 'bits')).toBe('0 b/s');
    expect(formatRate(999.999e9, 'bytes')).toBe('1.00 TB/s');
    expect(formatRate(1e34, 'bytes')).toBe('1.000e+4 QB/s');
  });

  it('shows unknown as a dash, never as zero', () => {
    for (const v of [null, undefined, Number.NaN, Number.POSITIVE_INFINITY])
      expect(formatRate(v, 'bytes')).toBe(MISSING);
  });

  it('any finite rate: at most four significant digits, and the prefix that leaves 1–999 before the point', () => {
    fc.assert(
      fc.property(anyRate, units, (v, unit) => {
        const { value, unit: symbol } = scaleRate(v, unit);
        const prefix = symbol.slice(0, -3);
        const base = unit === 'bits' ? v * 8 : v;
        expect(significantDigits(value)).toBeLessThanOrEqual(4);
        expect(symbol.endsWith(unit === 'bits' ? 'b/s' : 'B/s')).toBe(true);
        expect(prefix in PREFIX_EXPONENT).toBe(true);
        if (base === 0 || !Number.isFinite(base)) return;
        const exponent = PREFIX_EXPONENT[prefix] ?? -1;
        const shown = Math.abs(Number(value));
        if (exponent === 10) return; // beyond the last prefix: powers of ten
        // The prefix is the one that leaves 1 ≤ |number| < 1000 (below 1 B/s: none).
        if (exponent > 0) expect(shown).toBeGreaterThanOrEqual(1);
        expect(shown).toBeLessThan(1000);
        expect(/^-?\d{1,3}(\.\d{1,2})?$/.test(value)).toBe(true);
      }),
    );
  });

  it('reads back within 0.5 % of the true rate, in either unit', () => {
    fc.assert(
      fc.property(realisticRate, units, (v, unit) => {
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
        return Math.abs(bits - v * 8) <= v * 8 * 0.005 && Math.abs(bytes - v) <= v * 0.005;
      }),
    );
  });

  it('writes the analysis’ Gb/s as any other rate', () => {
    expect(formatGbpsRate(99, 'bytes')).toBe('12.38 GB/s');
    expect(formatGbpsRate(99, 'bits')).toBe('99.00 Gb/s');
    expect(formatGbpsRate(109_548, 'bytes')).toBe('13.69 TB/s');
    expect(formatGbpsRate(null, 'bits')).toBe(MISSING);
  });
});

describe('formatRateTicks', () => {
  it('labels an axis in one prefix with the fewest decimals that tell the ticks apart', () => {
    expect(formatRateTicks([0, 5e9, 10e9], 'bytes')).toEqual(['0 GB/s', '5 GB/s', '10 GB/s']);
    expect(formatRateTicks([0, 2.5e12, 5e12, 7.5e12, 10e12], 'bytes')).toEqual([
      '0.0 TB/s',
      '2.5 TB/s',
      '5.0 TB/s',
      '7.5 TB/s',
      '10.0 TB/s',
    ]);
    expect(formatRateTicks([0, 5e9, 10e9], 'bits')).toEqual(['0 Gb/s', '40 Gb/s', '80 Gb/s']);
    expect(formatRateTicks([], 'bytes')).toEqual([]);
    // Rounding never adds a digit: 9.9995 MB/s is "10.00", 999.96 kB/s goes up to MB/s.
    expect(formatRateTicks([0, 9_999_500.000000002], 'bytes')).toEqual(['0.00 MB/s', '10.00 MB/s']);
    expect(formatRateTicks([0, 999_960], 'bytes')).toEqual(['0.000 MB/s', '1.000 MB/s']);
  });

  it('never gives more than four significant digits nor mixes prefixes', () => {
    fc.assert(
      fc.property(
        fc.array(fc.double({ min: 0, max: 1e16, noNaN: true }), { minLength: 1, maxLength: 8 }),
        units,
        (values, unit) => {
          const ticks = formatRateTicks(values, unit);
          const symbols = new Set(ticks.map((t) => t.split(' ')[1]));
          expect(symbols.size).toBe(1);
          for (const t of ticks) expect(significantDigits(t.split(' ')[0] ?? '')).toBeLessThanOrEqual(4);
        },
      ),
    );
  });
});

describe('counts and per-second figures', () => {
  it('groups thousands with commas', () => {
    expect(formatCount(13_824)).toBe('13,824');
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

  it('fits a histogram bar: at most four characters, never more than the count', () => {
    expect(formatCompactCount(1234)).toBe('1.2k');
    expect(formatCompactCount(165_888)).toBe('165k');
    const factor: Record<string, number> = { '': 1, k: 1e3, M: 1e6, G: 1e9 };
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 999_999_999_999 }), (n) => {
        const s = formatCompactCount(n);
        const m = /^(\d+(?:\.\d)?)([kMG]?)$/.exec(s);
        if (!m || s.length > 4) return false;
        const shown = Number(m[1]) * (factor[m[2] ?? ''] ?? 1);
        return shown <= n + 1e-6 && shown >= n * 0.9 - 1;
      }),
    );
  });

  it('writes events per second readably', () => {
    expect(formatPerSecond(0)).toBe('0');
    expect(formatPerSecond(0.5)).toBe('0.50');
    expect(formatPerSecond(1.998)).toBe('2.0');
    expect(formatPerSecond(1000)).toBe('1,000');
    expect(formatPerSecond(null)).toBe(MISSING);
  });

  it('prints fractions as percent, packets in millions, ages compactly', () => {
    expect(formatPercent(0.5)).toBe('50.0 %');
    expect(formatPercentValue(0.995)).toBe('99.5');
    expect(formatPercent(1, 0)).toBe('100 %');
    expect(formatMpps(1_520_000)).toBe('1.52');
    expect(formatAge(1.234)).toBe('1.2 s');
    expect(formatAge(185)).toBe('3 min 5 s');
    expect(formatAge(7440)).toBe('2 h 4 min');
    for (const f of [formatPercent, formatPercentValue, formatMpps, formatAge, formatPerSecond])
      expect(f(Number.NaN)).toBe(MISSING);
  });
});

describe('times', () => {
  const at = new Date(2026, 10, 22, 15, 4, 5).getTime();

  it('uses a 24-hour clock, with the date when not today', () => {
    expect(formatClock(at, at)).toBe('15:04:05');
    expect(formatClock(at, at + 86_400_000)).toBe('2026-11-22 15:04:05');
    expect(formatTimeTick(at, false)).toBe('15:04');
    expect(formatTimeTick(at, true)).toBe('15:04:05');
  });

  it('never writes AM/PM nor a 12-hour hour, whatever the instant', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 4_102_444_800_000 }), (ms) => {
        const text = formatClock(ms, ms + 400 * 86_400_000);
        expect(text).toMatch(/^\d{4}-\d{2}-\d{2} ([01]\d|2[0-3]):[0-5]\d:[0-5]\d$/);
        expect(text).not.toMatch(/AM|PM/i);
      }),
    );
  });

  it('date-and-time fields: 24-hour text that reads back to the same second', () => {
    expect(formatDateTimeField(at)).toBe('2026-11-22 15:04:05');
    expect(parseDateTimeField('2026-11-22 15:04:05')).toBe(at);
    expect(parseDateTimeField('2026-11-22T15:04:05')).toBe(at);
    expect(parseDateTimeField('2026-11-22 15:04')).toBe(at - 5000);
    for (const bad of ['', '11/22/2026, 03:04:05 PM', '2026-02-31 10:00', '2026-11-22 25:00', '2026-11-22'])
      expect(parseDateTimeField(bad), bad).toBeNull();
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 4_102_444_800 }), (s) => {
        const ms = s * 1000;
        // A zone's skipped hour (spring forward) has no wall-clock time to read back.
        const back = parseDateTimeField(formatDateTimeField(ms));
        return back === ms || back === null || Math.abs((back ?? 0) - ms) === 3_600_000;
      }),
    );
  });

  it('names the zone once: the zone and its offset from UTC', () => {
    expect(formatTimeZone('Europe/Paris', 60)).toBe('Europe/Paris, UTC+01:00');
    expect(formatTimeZone('America/St_Johns', -150)).toBe('America/St_Johns, UTC−02:30');
    expect(formatTimeZone('UTC', 0)).toBe('UTC');
    expect(formatTimeZone(undefined, 0)).toBe('UTC');
  });
});

describe('link names', () => {
  it('writes a direction with an arrow and a cable with a double arrow, one way everywhere', () => {
    expect(formatDirection('edge1/4->core2/1')).toBe('edge1/4 → core2/1');
    expect(formatLinkIds('edge2/3--core1/2')).toBe('edge2/3 ↔ core1/2');
    expect(formatEnds({ from: { node: 'edge1', port: 4 }, to: { node: 'core2', port: 1 } })).toBe(
      'edge1/4 → core2/1',
    );
    expect(formatLinkIds('link edge2/3--core1/2 down; edge1/4->core2/1 over')).toBe(
      'link edge2/3 ↔ core1/2 down; edge1/4 → core2/1 over',
    );
    expect(formatLinkIds('AR enabled false → true')).toBe('AR enabled false → true');
  });

  it('names fabric types as vendors write them', () => {
    expect(formatFabricType('omnipath')).toBe('Omni-Path');
    expect(formatFabricType('other')).toBe('other');
  });
});

describe('formatStore', () => {
  it('names the store, and the collectors when the live view is read from them', () => {
    expect(formatStore(undefined)).toBe('—');
    expect(formatStore({ store: 'embedded' })).toBe('embedded');
    expect(formatStore({ store: 'prometheus' })).toBe('prometheus');
    expect(formatStore({ store: 'prometheus', liveSource: 'collectors' })).toBe(
      'prometheus · live from the collectors',
    );
  });
});
