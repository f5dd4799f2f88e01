import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { LiveSnapshot } from '../../api/types.ts';
import { alignWindow, parseRange, stepSeconds, windowOf } from '../../lib/timeRange.ts';
import { INITIAL_STREAM_STATE, LiveStream } from '../../state/liveStream.ts';
import {
  followedEndMs,
  gatherTail,
  type HistoryWindowSpec,
  historyStepOf,
  historyWindowAt,
} from './useHistoryWindow.ts';

describe('the history window made by each panel that draws it', () => {
  const spec = (over: Partial<HistoryWindowSpec> = {}): HistoryWindowSpec => ({
    range: parseRange('5m'),
    atMs: null,
    tickSeconds: 10,
    widthPx: 800,
    ...over,
  });

  it('is the window the dashboard asked before: the preset ending at the next whole 5 s after the newest sample', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1.7e12, max: 1.8e12 }),
        fc.constantFrom('5m', '15m', '1h'),
        fc.integer({ min: 0, max: 3000 }),
        fc.constantFrom(1, 10),
        (latestMs, preset, widthPx, tickSeconds) => {
          const s = spec({ range: parseRange(preset), widthPx, tickSeconds });
          const step = stepSeconds(windowOf(s.range, 0, null), widthPx || 1000, tickSeconds);
          expect(historyStepOf(s)).toBe(step);
          const followMs = Math.max(5000, step * 1000);
          const nowMs = Math.ceil(latestMs / followMs) * followMs;
          expect(historyWindowAt(s, latestMs)).toEqual(alignWindow(windowOf(s.range, nowMs, null), step));
        },
      ),
    );
  });

  it('moves only when the newest sample passes a whole follow period', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1.7e12, max: 1.8e12 }), fc.integer({ min: 0, max: 20_000 }), (a, d) => {
        const b = a + d;
        const same = followedEndMs(a, 1) === followedEndMs(b, 1);
        expect(same).toBe(Math.ceil(a / 5000) === Math.ceil(b / 5000));
        if (same) expect(historyWindowAt(spec(), a)).toEqual(historyWindowAt(spec(), b));
      }),
    );
    expect(followedEndMs(null, 1)).toBeNull();
  });
});

describe("the stream's totals gathered for the chart", () => {
  const at = (s: number) => new Date(Date.parse('2026-01-01T00:00:00Z') + s * 1000).toISOString();
  const message = (stream: LiveStream, s: number, bytesPerSecond: number | null) =>
    stream.set({
      ...INITIAL_STREAM_STATE,
      snapshot: {
        time: at(s),
        health: { intervalMs: 10_000 },
        summary: { hostTransmitBytesPerSecond: bytesPerSecond },
      } as LiveSnapshot,
      receivedAtMs: s,
    });

  it('are each message once from the one held when asked, restarted after a gap, none after stop', () => {
    const stream = new LiveStream();
    message(stream, 0, 1);
    const { tail, stop } = gatherTail(stream);
    message(stream, 10, 2);
    // A state change that is not a tick (the stream turned silent) adds nothing.
    stream.update((s) => ({ ...s, silent: true }));
    message(stream, 20, null);
    expect(tail().map((p) => [p.timeMs, p.bytesPerSecond])).toEqual([
      [Date.parse(at(0)), 1],
      [Date.parse(at(10)), 2],
      [Date.parse(at(20)), null],
    ]);
    // Messages lost (a reconnect after a minute): the tail starts again.
    message(stream, 80, 3);
    expect(tail().map((p) => p.bytesPerSecond)).toEqual([3]);
    stop();
    message(stream, 90, 4);
    expect(tail().map((p) => p.bytesPerSecond)).toEqual([3]);
  });
});
