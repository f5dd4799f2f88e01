import { useMemo, useRef } from 'react';
import type { EventList } from '../api/types.ts';
import {
  alignWindow,
  formatInstant,
  stepSeconds,
  type TimeRange,
  type TimeWindow,
  windowOf,
} from '../lib/timeRange.ts';
import { latestMsOf, useLiveSelector } from './liveStream.ts';
import { type ApiAnswer, useApiQuery } from './useApiQuery.ts';

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
  /** Aligned to whole steps: the question the history charts ask. */
  window: TimeWindow;
  step: number;
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
 * The window and step of the history charts. A preset window ends at the newest sample (or
 * around the instant viewed, never past it), moved on the stream's tick in FOLLOW_MS (or step)
 * increments, so the charts re-ask on the one refresh clock and never faster than every few
 * seconds; the step is the window over the plot's width. The stream is read as that rounded end:
 * a message re-renders the caller only when the end moves, and a custom window never.
 */
/**
 * A question about a window that follows the newest sample: a new key every tick, the answer
 * before shown while the next loads, and no longer kept once replaced (the cache's default keeps an
 * answer 5 minutes: at a 10 s tick, 30 windows of points and events the page will not show again,
 * which every major garbage collection walks).
 */
export const MOVING_WINDOW = { keepPrevious: true, forget: true } as const;

export function useHistoryWindow(spec: HistoryWindowSpec): HistoryWindow {
  const step = historyStepOf(spec);
  const follows = spec.range.kind === 'preset';
  const followed = useLiveSelector((s) => (follows ? followedEndMs(latestMsOf(s), step) : null));
  // Before the first message, now is the browser's (read at render: a selection must stay put).
  const { fromMs, toMs } = historyWindowAt(spec, followed);
  // The same object while the window stays: the charts given it redraw only when it moves.
  const window = useMemo(() => ({ fromMs, toMs }), [fromMs, toMs]);
  return useMemo(() => ({ window, step }), [window, step]);
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

/**
 * Events in a window, from the shared cache (the chart, the events panel and the before/after view
 * ask the same): the answer before while the events are the same.
 */
export function useEvents(window: TimeWindow): ApiAnswer<EventList> {
  const from = formatInstant(window.fromMs);
  const to = formatInstant(window.toMs);
  const answer = useApiQuery<EventList>(
    ['events', from, to],
    (api, signal) => api.getEvents(from, to, signal),
    MOVING_WINDOW,
  );
  const held = useRef<ApiAnswer<EventList> | null>(null);
  const stable = sameEventsAnswer(held.current, answer);
  held.current = stable;
  return stable;
}
