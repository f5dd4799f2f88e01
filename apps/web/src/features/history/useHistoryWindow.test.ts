import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { EventList, LiveSnapshot } from '../../api/types.ts';
import { alignWindow, parseRange, stepSeconds, windowOf } from '../../lib/timeRange.ts';
import { INITIAL_STREAM_STATE, LiveStream } from '../../state/liveStream.ts';
import type { ApiAnswer } from '../../state/useApiQuery.ts';
import {
  eventsWithin,
  followedEndMs,
  gatherTail,
  type HistoryWindowSpec,
  historyStepOf,
  historyWindowAt,
  sameEvents,
  sameEventsAnswer,
} from './useHistoryWindow.ts';

type Event = EventList['events'][number];

const event: fc.Arbitrary<Event> = fc.record({
  time: fc.integer({ min: 1.7e12, max: 1.8e12 }).map((ms) => new Date(ms).toISOString()),
  kind: fc.constantFrom('threshold', 'fault', 'adaptive-routing', 'link-state'),
  subject: fc.constantFrom('fabric', 'edge1/3->core1/1', 'host1/1'),
  detail: fc.string({ maxLength: 12 }),
  severity: fc.constantFrom('info', 'warning', 'error', 'critical'),
}) as fc.Arbitrary<Event>;

const ready = (events: Event[], updating = false): ApiAnswer<EventList> => ({
  status: 'ready',
  data: { events } as unknown as EventList,
  updating,
  failure: null,
  answeredAtMs: 0,
  reload: () => {},
  reset: () => {},
});

describe('the events of a window moved by a few seconds', () => {
  it('are the same when every event reads the same, whatever objects hold them', () => {
    fc.assert(
      fc.property(fc.array(event, { maxLength: 8 }), (events) => {
        expect(sameEvents(events, structuredClone(events))).toBe(true);
        const held = ready(events);
        // A new answer of a new window's key, with equal events: the one held is kept.
        expect(sameEventsAnswer(held, ready(structuredClone(events)))).toBe(held);
      }),
    );
  });

  it('are new when an event entered, left or changed', () => {
    fc.assert(
      fc.property(
        fc.array(event, { minLength: 1, maxLength: 8 }),
        fc.nat(),
        fc.constantFrom('time', 'kind', 'subject', 'detail', 'severity'),
        (events, at, field) => {
          const i = at % events.length;
          const changed = structuredClone(events);
          const e = changed[i] as Event;
          (e as Record<string, string>)[field] = `${e[field as keyof Event]}!`;
          const next = ready(changed);
          expect(sameEventsAnswer(ready(events), next)).toBe(next);
          const fewer = ready(events.slice(1));
          expect(sameEventsAnswer(ready(events), fewer)).toBe(fewer);
          const more = ready([...events, events[0] as Event]);
          expect(sameEventsAnswer(ready(events), more)).toBe(more);
        },
      ),
    );
  });

  it('a change of status, of a read on its way or of a failure is new', () => {
    const held = ready([]);
    const loading = { ...held, status: 'loading' } as ApiAnswer<EventList>;
    expect(sameEventsAnswer(held, loading)).toBe(loading);
    const updating = ready([], true);
    expect(sameEventsAnswer(held, updating)).toBe(updating);
    const failed = { ...ready([]), failure: { message: 'down', status: 0 } };
    expect(sameEventsAnswer(held, failed)).toBe(failed);
    const error = { ...held, status: 'error', message: 'x' } as ApiAnswer<EventList>;
    expect(sameEventsAnswer(error, { ...error })).toBe(error);
    const other = { ...error, message: 'y' } as ApiAnswer<EventList>;
    expect(sameEventsAnswer(error, other)).toBe(other);
  });
});

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

describe('the events of a question asked open-ended, shown for the window drawn', () => {
  it('are those of the window, counted as such, and the same answer when all are', () => {
    fc.assert(
      fc.property(
        fc.array(event, { maxLength: 12 }),
        fc.integer({ min: 1.7e12, max: 1.8e12 }),
        fc.integer({ min: 0, max: 1e11 }),
        fc.nat({ max: 40 }),
        (events, fromMs, spanMs, more) => {
          const window = { fromMs, toMs: fromMs + spanMs };
          const answer = ready(events);
          (answer as { data: EventList }).data.total = events.length + more;
          const shown = eventsWithin(answer, window);
          if (shown.status !== 'ready') throw new Error('ready expected');
          const inside = events.filter((e) => {
            const ms = Date.parse(e.time);
            return ms >= window.fromMs && ms <= window.toMs;
          });
          expect(shown.data.events).toEqual(inside);
          // The pages not read are still counted.
          expect(shown.data.total).toBe(inside.length + more);
          if (inside.length === events.length) expect(shown).toBe(answer);
        },
      ),
    );
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
