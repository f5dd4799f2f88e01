import { useEffect, useMemo, useState } from 'react';
import { streamSilenceLimitSeconds } from '../../lib/freshness.ts';
import {
  alignWindow,
  parseInstant,
  stepSeconds,
  type TimeRange,
  type TimeWindow,
  windowOf,
} from '../../lib/timeRange.ts';
import { type LiveStream, latestMsOf, useLiveSelector, useLiveStream } from '../../state/liveStream.ts';
import { appendTail, askEveryMs, askedEndMs, type TailPoint } from './historyTail.ts';

/** A window that follows now moves (and is asked again) at most this often. */
const FOLLOW_MS = 5000;

/** What the history window is made of, none of which moves with the stream. */
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
  /** The question asked of the store: `window`, or one moving every askEveryMs for a following window. */
  asked: TimeWindow;
  /** The window follows the newest sample (a preset, live or around a recent instant). */
  follows: boolean;
}

/** The step of a spec's window (s): its span over the plot's width; it does not depend on now. */
export function historyStepOf(spec: HistoryWindowSpec): number {
  return stepSeconds(windowOf(spec.range, 0, null), spec.widthPx || 1000, spec.tickSeconds);
}

/** A preset window's end at the newest sample: the next whole FOLLOW_MS (or step), so it moves that often. */
export function followedEndMs(latestMs: number | null, step: number): number | null {
  const followMs = Math.max(FOLLOW_MS, step * 1000);
  return latestMs === null ? null : Math.ceil(latestMs / followMs) * followMs;
}

/** The window of `spec` when the newest sample is `latestMs` (null: the browser's now). */
export function historyWindowAt(spec: HistoryWindowSpec, latestMs: number | null): TimeWindow {
  const step = historyStepOf(spec);
  const nowMs = followedEndMs(latestMs ?? Date.now(), step) ?? 0;
  return alignWindow(windowOf(spec.range, nowMs, spec.atMs), step);
}

/** A moving window's question: the previous answer shows while the next loads, then is forgotten. */
export const MOVING_WINDOW = { keepPrevious: true, forget: true } as const;

/** The history charts' window and step; a preset ends at the newest sample, moved in FOLLOW_MS steps. */
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

/** Gathers each message's host transmit total from `stream`; `stop()` unsubscribes. */
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

/** The host transmit total of every message since mount, gathered outside React. */
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
