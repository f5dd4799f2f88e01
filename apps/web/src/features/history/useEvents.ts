import type { EventList } from '@fabscope/contracts';
import { useMemo, useRef } from 'react';
import { formatInstant, type TimeWindow } from '../../lib/timeRange.ts';
import { type ApiAnswer, useApiQuery } from '../../state/useApiQuery.ts';
import { MOVING_WINDOW } from './useHistoryWindow.ts';

type Event = EventList['events'][number];

/** The same events, in the same order, field by field. */
export function sameEvents(a: readonly Event[], b: readonly Event[]): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    const x = a[i] as Event;
    const y = b[i] as Event;
    const keys = Object.keys(x) as (keyof Event)[];
    if (keys.length !== Object.keys(y).length) return false;
    for (const k of keys) if (x[k] !== y[k]) return false;
  }
  return true;
}

/** `next`, or `held` when it says the same, so the panels need not draw the same events again. */
export function sameEventsAnswer(
  held: ApiAnswer<EventList> | null,
  next: ApiAnswer<EventList>,
): ApiAnswer<EventList> {
  if (!held || held === next) return next;
  if (held.status !== next.status || held.updating !== next.updating) return next;
  if (held.failure?.message !== next.failure?.message) return next;
  if (next.status === 'ready')
    return sameEvents((held as typeof next).data.events, next.data.events) ? held : next;
  if (next.status === 'error') return (held as typeof next).message === next.message ? held : next;
  return held;
}

/** The events of `answer` within `window`; the same answer when all are. */
export function eventsWithin(answer: ApiAnswer<EventList>, window: TimeWindow): ApiAnswer<EventList> {
  if (answer.status !== 'ready') return answer;
  const events = answer.data.events.filter((e) => {
    const ms = Date.parse(e.time);
    return ms >= window.fromMs && ms <= window.toMs;
  });
  return events.length === answer.data.events.length
    ? answer
    : {
        ...answer,
        data: {
          ...answer.data,
          events,
          total: answer.data.total - (answer.data.events.length - events.length),
        },
      };
}

/** Events in a window from the shared cache; a following window asks open-ended on ticks. */
export function useEvents(
  window: TimeWindow,
  asked: TimeWindow = window,
  follows = false,
): ApiAnswer<EventList> {
  const from = formatInstant(asked.fromMs);
  const to = follows ? null : formatInstant(asked.toMs);
  const answer = useApiQuery<EventList>(
    ['events', from, to],
    (api, signal) => api.getEvents(from, to, signal),
    follows ? { ...MOVING_WINDOW, live: true } : MOVING_WINDOW,
  );
  const shown = useMemo(() => eventsWithin(answer, window), [answer, window]);
  const held = useRef<ApiAnswer<EventList> | null>(null);
  const stable = sameEventsAnswer(held.current, shown);
  held.current = stable;
  return stable;
}
