import { useEffect, useMemo, useRef, useState } from 'react';
import type { EventList } from '../../api/types.ts';
import { streamSilenceLimitSeconds } from '../../lib/freshness.ts';
import {
  alignWindow,
  formatInstant,
  parseInstant,
  stepSeconds,
  type TimeRange,
  type TimeWindow,
  windowOf,
} from '../../lib/timeRange.ts';
import { type LiveStream, latestMsOf, useLiveSelector, useLiveStream } from '../../state/liveStream.ts';
import { type ApiAnswer, useApiQuery } from '../../state/useApiQuery.ts';
import { appendTail, askEveryMs, askedEndMs, type TailPoint } from './historyTail.ts';

/** A window that follows now moves (and is asked again) at most this often. */
const FOLLOW_MS = 5000;

/**
 * What the history charts' window is made of, none of which moves with the stream: the range, the
 * instant viewed, the tick, and the chart's plot width (the step follows it). The dashboard holds
 * it; each panel that draws the window makes it from this and the stream (useHistoryWindow), so a
 * window that moves with now re-renders those panels, not the dashboard.
 */
export interface HistoryWindowSpec {
  range: TimeRange;
  atMs: number | null;
  tickSeconds: number;
  /** The total chart's plot width in px (0 before it reported one). */
  widthPx: number;
}

export interface HistoryWindow {
  /** Aligned to whole steps: the window the history charts draw. */
  window: TimeWindow;
  step: number;
  /**
   * The question asked of the store for the total chart and the events: `window` itself, or for a
   * window that follows now, one that moves only every askEveryMs (lib/historyTail.ts) — its
   * newest points come from the stream's tail (useSummaryTail), its newest events from asking it
   * open-ended on the ticks.
   */
  asked: TimeWindow;
  /** The window follows the newest sample (a preset, live or around a recent instant). */
  follows: boolean;
}

/** The step of a spec's window (s): its span over the plot's width; it does not depend on now. */
export function historyStepOf(spec: HistoryWindowSpec): number {
  return stepSeconds(windowOf(spec.range, 0, null), spec.widthPx || 1000, spec.tickSeconds);
}

/**
 * The end a preset window is given at the newest sample `latestMs` (null before the first): the
 * next whole FOLLOW_MS (or step, when longer), so it moves at most that often.
 */
export function followedEndMs(latestMs: number | null, step: number): number | null {
  const followMs = Math.max(FOLLOW_MS, step * 1000);
  return latestMs === null ? null : Math.ceil(latestMs / followMs) * followMs;
}

/**
 * The window of `spec` when the newest sample is `latestMs` (null before the first: now is the
 * browser's then).
 */
export function historyWindowAt(spec: HistoryWindowSpec, latestMs: number | null): TimeWindow {
  const step = historyStepOf(spec);
  const nowMs = followedEndMs(latestMs ?? Date.now(), step) ?? 0;
  return alignWindow(windowOf(spec.range, nowMs, spec.atMs), step);
}

/**
 * A question about a window that follows the newest sample: a new key as it moves, the answer
 * before shown while the next loads, and no longer kept once replaced (the cache's default keeps an
 * answer 5 minutes: at a 10 s tick, 30 windows of points and events the page will not show again,
 * which every major garbage collection walks).
 */
export const MOVING_WINDOW = { keepPrevious: true, forget: true } as const;

/**
 * The window and step of the history charts. A preset window ends at the newest sample (or
 * around the instant viewed, never past it), moved on the stream's tick in FOLLOW_MS (or step)
 * increments, so the charts re-ask on the one refresh clock and never faster than every few
 * seconds; the step is the window over the plot's width. The stream is read as that rounded end:
 * a message re-renders the caller only when the end moves, and a custom window never. A window
 * that follows now is asked of the store less often (`asked`): `tailStartMs` is the first message
 * of the caller's useSummaryTail, which draws what the store was not asked for.
 */
export function useHistoryWindow(spec: HistoryWindowSpec, tailStartMs: number | null = null): HistoryWindow {
  const step = historyStepOf(spec);
  const preset = spec.range.kind === 'preset';
  const followed = useLiveSelector((s) => (preset ? followedEndMs(latestMsOf(s), step) : null));
  // Before the first message, now is the browser's (read at render: a selection must stay put).
  const { fromMs, toMs } = historyWindowAt(spec, followed);
  // The same object while the window stays: the charts given it redraw only when it moves.
  const window = useMemo(() => ({ fromMs, toMs }), [fromMs, toMs]);
  const follows = followed !== null && windowOf(spec.range, followed, spec.atMs).toMs === followed;
  const spanMs = spec.range.kind === 'preset' ? spec.range.seconds * 1000 : 0;
  const askedEnd =
    follows && followed !== null
      ? askedEndMs(followed, askEveryMs(spanMs, step, FOLLOW_MS), tailStartMs)
      : null;
  const question = askedEnd === null ? window : alignWindow(windowOf(spec.range, askedEnd, spec.atMs), step);
  const askedFrom = question.fromMs;
  const askedTo = question.toMs;
  // The same question while its ends stay, though the window drawn moves.
  const asked = useMemo(() => ({ fromMs: askedFrom, toMs: askedTo }), [askedFrom, askedTo]);
  return useMemo(() => ({ window, step, asked, follows }), [window, step, asked, follows]);
}

/**
 * Gathers the host transmit total of each message of `stream` from now on (lib/historyTail.ts):
 * `tail()` reads what it holds; `stop()` unsubscribes.
 */
export function gatherTail(stream: LiveStream): { tail: () => readonly TailPoint[]; stop: () => void } {
  let tail: readonly TailPoint[] = [];
  const add = () => {
    const snapshot = stream.get().snapshot;
    const timeMs = parseInstant(snapshot?.time ?? null);
    if (!snapshot || timeMs === null) return;
    const gapMs = streamSilenceLimitSeconds(snapshot.health.intervalMs) * 1000;
    tail = appendTail(tail, { timeMs, bytesPerSecond: snapshot.summary.hostTransmitBytesPerSecond }, gapMs);
  };
  add();
  return { tail: () => tail, stop: stream.subscribe(add) };
}

/**
 * The host transmit total of every stream message since the caller mounted (gatherTail), gathered
 * outside React: reading it re-renders nothing; the caller reads it when it renders for another
 * reason (the window moved). Restarted after a gap in the messages.
 */
export function useSummaryTail(): readonly TailPoint[] {
  const stream = useLiveStream();
  const [gathered] = useState(() => ({ tail: (): readonly TailPoint[] => [] }));
  useEffect(() => {
    const { tail, stop } = gatherTail(stream);
    gathered.tail = tail;
    return stop;
  }, [stream, gathered]);
  return gathered.tail();
}

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

/**
 * `next`, or `held` when it says the same (the same status, failure and events): a window moved
 * by a few seconds mostly finds the events it had, and the panels given the answer need not draw
 * them again. (Its `reload` then asks the window before: no caller of useEvents reloads.)
 */
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

/**
 * Events in a window, from the shared cache (the chart, the events panel and the before/after view
 * ask the same): the answer before while the events are the same. A window that follows now asks
 * its `asked` question open-ended (up to now), again on the stream's ticks, conditional on the
 * answer held (unchanged: nothing is sent, nothing re-renders), and shows those within `window`.
 */
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
