import { useMemo, useState } from 'react';
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
import { useApiQuery } from './useApiQuery.ts';

/** A window that follows now moves (and is asked again) at most this often. */
const FOLLOW_MS = 5000;

export interface HistoryWindow {
  /** Aligned to whole steps: the question the history charts ask. */
  window: TimeWindow;
  step: number;
  /** The chart reports its plot width here; the step follows it. */
  setWidth: (width: number) => void;
}

/**
 * The window and step of the history charts. A preset window ends at the newest sample, moved
 * on the stream's tick in FOLLOW_MS (or step) increments, so the charts re-ask on the one refresh
 * clock and never faster than every few seconds; the step is the window over the plot's width.
 * The stream is read as that rounded end: a message re-renders the caller only when the window
 * moves.
 */
export function useHistoryWindow(range: TimeRange, atMs: number | null, tickSeconds: number): HistoryWindow {
  const [width, setWidth] = useState(0);
  // The window's span does not depend on now (a preset's length, or the custom window): nor does the step.
  const span = windowOf(range, 0, null);
  const step = stepSeconds(span, width || 1000, tickSeconds);
  const followMs = Math.max(FOLLOW_MS, step * 1000);
  const followed = useLiveSelector((s) => {
    const latestMs = latestMsOf(s);
    return latestMs === null ? null : Math.ceil(latestMs / followMs) * followMs;
  });
  // Before the first message, now is the browser's (read at render: a selection must stay put).
  const nowMs = followed ?? Math.ceil(Date.now() / followMs) * followMs;
  const aligned = alignWindow(windowOf(range, nowMs, atMs), step);
  // The same object while the window stays: the charts given it redraw only when it moves.
  const { fromMs, toMs } = aligned;
  const window = useMemo(() => ({ fromMs, toMs }), [fromMs, toMs]);
  return useMemo(() => ({ window, step, setWidth }), [window, step]);
}

/** Events in a window, from the shared cache (the chart and the before/after view ask the same). */
export function useEvents(window: TimeWindow) {
  const from = formatInstant(window.fromMs);
  const to = formatInstant(window.toMs);
  return useApiQuery<EventList>(['events', from, to], (api, signal) => api.getEvents(from, to, signal), {
    keepPrevious: true,
  });
}
