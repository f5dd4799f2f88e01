import type { EventList } from '@fabscope/contracts';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ApiAnswer } from '../../state/useApiQuery.ts';
import { eventsWithin, sameEvents, sameEventsAnswer } from './useEvents.ts';

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
