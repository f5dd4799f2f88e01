import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  alignWindow,
  parseInstant,
  parseRange,
  serializeRange,
  stepSeconds,
  type TimeRange,
  windowOf,
} from './timeRange.ts';

const T = Date.parse('2026-11-22T11:02:15.000Z');

describe('time range', () => {
  it('reads instants as RFC 3339 or Unix seconds, and nothing else', () => {
    expect(parseInstant('2026-11-22T11:02:15Z')).toBe(T);
    expect(parseInstant(String(T / 1000))).toBe(T);
    expect(parseInstant(T / 1000)).toBe(T);
    expect(parseInstant('yesterday')).toBeNull();
    expect(parseInstant('')).toBeNull();
    expect(parseInstant(null)).toBeNull();
  });

  it('round-trips presets and custom windows through the URL; junk is the default', () => {
    expect(parseRange('5m')).toEqual({ kind: 'preset', key: '5m', seconds: 300 });
    expect(serializeRange(parseRange(null))).toBeNull();
    const custom: TimeRange = { kind: 'custom', fromMs: T - 60_000, toMs: T };
    expect(parseRange(serializeRange(custom))).toEqual(custom);
    expect(parseRange('2026-11-22T11:02:15Z..2026-11-22T11:00:00Z').kind).toBe('preset');
    expect(parseRange('1d')).toEqual(parseRange(null));
  });

  it('a preset window ends now, and moves back to keep an older instant in view', () => {
    const range = parseRange('5m');
    expect(windowOf(range, T, null)).toEqual({ fromMs: T - 300_000, toMs: T });
    expect(windowOf(range, T, T - 60_000)).toEqual({ fromMs: T - 300_000, toMs: T });
    const old = T - 3_600_000;
    const w = windowOf(range, T, old);
    expect(w.fromMs).toBeLessThan(old);
    expect(w.toMs).toBeGreaterThan(old);
    expect(w.toMs - w.fromMs).toBe(300_000);
  });

  it('step is range over pixel width, never under one tick', () => {
    expect(stepSeconds({ fromMs: 0, toMs: 3_600_000 }, 900, 1)).toBe(4);
    expect(stepSeconds({ fromMs: 0, toMs: 300_000 }, 900, 1)).toBe(1);
    expect(stepSeconds({ fromMs: 0, toMs: 300_000 }, 900, 10)).toBe(10);
    expect(stepSeconds({ fromMs: 0, toMs: 300_000 }, 0, 1)).toBe(300);
  });

  it('keeps points per answer within the pixel width, and aligned windows contain the original', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 2e12 }),
        fc.integer({ min: 1, max: 86_400_000 }),
        fc.integer({ min: 50, max: 4000 }),
        fc.constantFrom(1, 2, 10),
        (fromMs, spanMs, width, tick) => {
          const window = { fromMs, toMs: fromMs + spanMs };
          const step = stepSeconds(window, width, tick);
          expect(Number.isInteger(step)).toBe(true);
          expect(spanMs / 1000 / step).toBeLessThanOrEqual(width);
          const aligned = alignWindow(window, step);
          expect(aligned.fromMs).toBeLessThanOrEqual(window.fromMs);
          expect(aligned.toMs).toBeGreaterThanOrEqual(window.toMs);
          expect(aligned.fromMs % (step * 1000)).toBe(0);
        },
      ),
    );
  });
});
