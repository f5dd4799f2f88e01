import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RANGE_PRESETS } from '../../lib/timeRange.ts';
import { appendTail, askEveryMs, askedEndMs, TAIL_KEPT_MS, type TailPoint, withTail } from './historyTail.ts';

const TICK_MS = 10_000;
const GAP_MS = 21_000;

/** Messages one tick apart from `startMs`, each a tick late or early by up to 200 ms. */
const ticks = (startMs: number, jitters: readonly number[]): TailPoint[] =>
  jitters.map((j, i) => ({ timeMs: startMs + i * TICK_MS + j, bytesPerSecond: i * 1e9 }));

const jitters = fc.array(fc.integer({ min: -200, max: 200 }), { minLength: 1, maxLength: 60 });

describe('the stream tail', () => {
  it('holds every message of an unbroken stream once, in order', () => {
    fc.assert(
      fc.property(jitters, fc.integer({ min: 1, max: 3 }), (js, repeats) => {
        const messages = ticks(1.8e12, js);
        let tail: readonly TailPoint[] = [];
        // The stream's state changes more often than its tick: the same message is seen again.
        for (const m of messages) for (let r = 0; r < repeats; r++) tail = appendTail(tail, m, GAP_MS);
        expect(tail).toEqual(messages);
      }),
    );
  });

  it('starts again after a gap (messages lost) or a message older than the newest', () => {
    const before = ticks(1.8e12, [0, 0, 0]);
    let tail: readonly TailPoint[] = [];
    for (const m of before) tail = appendTail(tail, m, GAP_MS);
    const afterGap = { timeMs: 1.8e12 + 2 * TICK_MS + GAP_MS + 1, bytesPerSecond: 5 };
    expect(appendTail(tail, afterGap, GAP_MS)).toEqual([afterGap]);
    const older = { timeMs: 1.8e12 + TICK_MS / 2, bytesPerSecond: 5 };
    expect(appendTail(tail, older, GAP_MS)).toEqual([older]);
  });

  it('keeps no point older than TAIL_KEPT_MS before the newest', () => {
    let tail: readonly TailPoint[] = [];
    const n = TAIL_KEPT_MS / TICK_MS + 50;
    for (let i = 0; i < n; i++) tail = appendTail(tail, { timeMs: i * TICK_MS, bytesPerSecond: 1 }, GAP_MS);
    const newest = (n - 1) * TICK_MS;
    expect(tail[0]?.timeMs).toBe(newest - TAIL_KEPT_MS);
    expect(tail).toHaveLength(TAIL_KEPT_MS / TICK_MS + 1);
  });
});

describe('the question asked of the store', () => {
  it('moves once per askEveryMs, never after the window end, never before the tail starts', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1.7e12, max: 1.8e12 }),
        fc.integer({ min: 1, max: 3600 }),
        fc.option(fc.integer({ min: 0, max: 600_000 })),
        (followedMs, everyS, tailAgoMs) => {
          const everyMs = everyS * 1000;
          const tailStartMs = tailAgoMs === null ? null : followedMs - tailAgoMs;
          const end = askedEndMs(followedMs, everyMs, tailStartMs);
          expect(end).toBeLessThanOrEqual(followedMs);
          if (tailStartMs !== null) expect(end).toBeGreaterThanOrEqual(tailStartMs);
          // Otherwise the end is the last whole everyMs: the same for the window's every end until
          // the next.
          if (end !== tailStartMs) {
            expect(end % everyMs).toBe(0);
            expect(followedMs - end).toBeLessThan(everyMs);
          } else {
            expect(Math.floor(followedMs / everyMs) * everyMs).toBeLessThanOrEqual(end);
          }
        },
      ),
    );
  });

  it('goes between two questions less time than the tail keeps, for every preset', () => {
    for (const preset of RANGE_PRESETS)
      expect(askEveryMs(preset.seconds * 1000, 10, 5000) * 2).toBeLessThanOrEqual(TAIL_KEPT_MS);
  });

  it('is asked every tenth of the span, not more often than the window moves or a step', () => {
    expect(askEveryMs(900_000, 10, 5000)).toBe(90_000);
    expect(askEveryMs(30_000, 10, 5000)).toBe(10_000);
    expect(askEveryMs(30_000, 1, 5000)).toBe(5000);
  });
});

describe('the total chart drawn from the store and the tail', () => {
  it('is the store up to its last known point, then the tail about one point per step', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 40 }),
        fc.integer({ min: 0, max: 5 }),
        jitters,
        fc.constantFrom(10, 20, 30),
        (known, unknownAfter, js, stepS) => {
          const x0 = 1.8e9;
          const xs = Array.from({ length: known + unknownAfter }, (_, i) => x0 + i * stepS);
          const ys = xs.map((_, i) => (i < known ? i + 1 : null));
          const lastKnownS = x0 + (known - 1) * stepS;
          const tail = ticks(lastKnownS * 1000 - 3 * TICK_MS, js);
          const [outXs, outYs] = withTail(xs, ys, tail, stepS);
          // Times ascend, the store's known points are all there, and the tail's follow them.
          for (let i = 1; i < outXs.length; i++) expect(outXs[i]).toBeGreaterThan(outXs[i - 1] as number);
          expect(outXs.slice(0, known)).toEqual(xs.slice(0, known));
          expect(outYs.slice(0, known)).toEqual(ys.slice(0, known));
          const after = tail.filter((p) => p.timeMs / 1000 > lastKnownS);
          if (after.length === 0) {
            expect([outXs, outYs]).toEqual([xs, ys]);
            return;
          }
          // The store's unknowns before the tail's first message stay; the first message after the
          // store's last known point is drawn next; no two drawn messages are much closer than a
          // step; each is a message of the tail, with its value.
          const firstS = (after[0] as TailPoint).timeMs / 1000;
          const kept = xs.filter((x) => x < firstS).length;
          expect(outXs.slice(0, kept)).toEqual(xs.slice(0, kept));
          expect(outYs.slice(0, kept)).toEqual(ys.slice(0, kept));
          expect(outXs[kept]).toBe(firstS);
          for (let i = kept; i < outXs.length; i++) {
            const p = after.find((q) => q.timeMs / 1000 === outXs[i]);
            expect(p?.bytesPerSecond).toBe(outYs[i]);
            if (i > kept)
              expect((outXs[i] as number) - (outXs[i - 1] as number)).toBeGreaterThanOrEqual(stepS * 0.9);
          }
        },
      ),
    );
  });

  it("keeps the store's unknowns before the tail's first point", () => {
    const xs = [100, 110, 120, 130];
    const ys = [1, null, null, null];
    const tail = [
      { timeMs: 125_000, bytesPerSecond: 7 },
      { timeMs: 135_000, bytesPerSecond: null },
    ];
    expect(withTail(xs, ys, tail, 10)).toEqual([
      [100, 110, 120, 125, 135],
      [1, null, null, 7, null],
    ]);
  });
});
