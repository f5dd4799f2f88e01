import { counterRate } from '@fabscope/topology';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

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

describe('counter semantics: wraps, saturation, restarts and clears (property)', () => {
  const WRAP = 2 ** 32;
  type Event = 'none' | 'restart' | 'clear';
  const step = fc
    .record({
      load: fc.double({ min: 0, max: 1, noNaN: true }), // of a 10 Gb/s link
      seconds: fc.double({ min: 0.5, max: 1.5, noNaN: true }),
      event: fc.constantFrom<Event>('none', 'none', 'none', 'restart', 'clear'),
    })
    .map(({ load, seconds, event }) => ({ bytes: Math.floor(load * 1.25e9 * seconds), seconds, event }));

  it.each([
    ['a 32-bit counter that wraps at 2^32', (total: number) => total % WRAP],
    ['a 32-bit counter that saturates at 2^32 − 1', (total: number) => Math.min(total, WRAP - 1)],
    ['a 64-bit counter', (total: number) => total],
  ] as const)('%s: no negative rate, no spike, exact when nothing happened', (_name, read) => {
    fc.assert(
      fc.property(
        fc.nat({ max: 2 ** 33 }),
        fc.array(step, { minLength: 1, maxLength: 60 }),
        (start, steps) => {
          let total = start; // what the hardware counted since the last restart/clear
          let previous = read(total);
          for (const { bytes, seconds, event } of steps) {
            const wrappedOrStuck = read(total + bytes) !== total + bytes || read(total) !== total;
            total = event === 'none' ? total + bytes : bytes; // restart/clear: counting starts over
            const current = read(total);
            const rate = counterRate(previous, current, seconds, { maxPerSecond: 1.5 * 1.25e9 });
            if (rate !== null) {
              expect(rate).toBeGreaterThanOrEqual(0);
              expect(rate).toBeLessThanOrEqual(1.5 * 1.25e9);
              expect(rate * seconds).toBeLessThanOrEqual(bytes + 1e-3); // never more than was sent
              if (event === 'none' && !wrappedOrStuck) expect(rate * seconds).toBeCloseTo(bytes, 3);
            } else if (event === 'none' && !wrappedOrStuck) {
              expect.unreachable('a normal period must have a rate');
            }
            previous = current;
          }
        },
      ),
    );
  });

  it('a counter stuck at its 32-bit ceiling is unknown, not idle', () => {
    expect(counterRate(WRAP - 1, WRAP - 1, 1)).toBeNull();
    expect(counterRate(4 * (WRAP - 1), 4 * (WRAP - 1), 1)).toBeNull();
    expect(counterRate(17, 17, 1)).toBe(0);
  });

  it('a jump faster than the link is a gap (a swapped or reset counter), not a spike', () => {
    expect(counterRate(0, 5e12, 1, { maxPerSecond: 1.875e10 })).toBeNull();
    expect(counterRate(0, 1.2e10, 1, { maxPerSecond: 1.875e10 })).toBe(1.2e10);
  });
});
