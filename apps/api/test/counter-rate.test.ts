import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { counterRate } from '../src/store/counter-rate.ts';

describe('counterRate', () => {
  it('is the increase per second', () => {
    expect(counterRate(100, 12_500_000_100, 1)).toBe(12.5e9);
  });

  it('is a gap (null), never negative or a spike, when the counter drops: restart, clear, 32-bit wrap', () => {
    fc.assert(
      fc.property(
        fc.array(fc.double({ min: 0, max: 2 ** 32, noNaN: true }), { minLength: 2, maxLength: 50 }),
        fc.double({ min: 0.001, max: 100, noNaN: true }),
        (readings, seconds) => {
          for (let i = 1; i < readings.length; i++) {
            const prev = readings[i - 1] as number;
            const cur = readings[i] as number;
            const rate = counterRate(prev, cur, seconds);
            if (cur < prev) expect(rate).toBeNull();
            else {
              expect(rate).not.toBeNull();
              expect(rate as number).toBeGreaterThanOrEqual(0);
              // Never more than the counter actually moved.
              expect((rate as number) * seconds).toBeCloseTo(cur - prev, 3);
            }
          }
        },
      ),
    );
  });

  it('is a gap when no time passed', () => {
    expect(counterRate(1, 2, 0)).toBeNull();
  });
});
