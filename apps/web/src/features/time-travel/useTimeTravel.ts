import { useCallback, useEffect, useRef, useState } from 'react';
import { parseInstant, parseRange, serializeInstant, serializeRange } from '../../lib/timeRange.ts';
import { type LiveStream, latestMsOf, useLiveSelector, useLiveStream } from '../../state/liveStream.ts';
import { useUrlParam } from '../../state/useUrlState.ts';
import { applyScrub, isTypingTarget, type ScrubAction, scrubActionOf, tickFromGaps } from './scrub.ts';

/** Gaps between stream messages kept to measure the tick. */
const TICK_GAPS = 10;

/** Sampling tick: the server's interval, else the smallest recent gap between messages. */
function useTickSeconds(stream: LiveStream): number {
  const intervalMs = useLiveSelector((s) => s.snapshot?.health.intervalMs);
  const [tick, setTick] = useState(1);
  const told = intervalMs !== undefined && intervalMs > 0;
  const toldRef = useRef(told);
  toldRef.current = told;
  useEffect(() => {
    let previous = latestMsOf(stream.get());
    let gaps: number[] = [];
    return stream.subscribe(() => {
      const latestMs = latestMsOf(stream.get());
      if (latestMs === null) return;
      const last = previous;
      previous = latestMs;
      if (last === null || latestMs === last) return;
      gaps = [...gaps, latestMs - last].slice(-TICK_GAPS);
      // The gaps are kept, but measured only while the server does not say its tick.
      if (!toldRef.current) setTick((t) => tickFromGaps(gaps, t));
    });
  }, [stream]);
  return told ? intervalMs / 1000 : tick;
}

/** Range, viewed instant and bookmark in the URL, moved by opatop's keys outside text fields. */
export function useTimeTravel() {
  const stream = useLiveStream();
  const [range, setRange] = useUrlParam('range', parseRange, serializeRange);
  const [atMs, setAt] = useUrlParam('at', parseInstant, serializeInstant);
  const [bookmarkMs, setBookmark] = useUrlParam('mark', parseInstant, serializeInstant);
  const tickSeconds = useTickSeconds(stream);

  const dispatch = useCallback(
    (action: ScrubAction) => {
      const latestMs = latestMsOf(stream.get());
      const next = applyScrub({ atMs, bookmarkMs }, action, { latestMs, tickSeconds });
      if (next.atMs !== atMs) setAt(next.atMs);
      if (next.bookmarkMs !== bookmarkMs) setBookmark(next.bookmarkMs);
    },
    [stream, atMs, bookmarkMs, tickSeconds, setAt, setBookmark],
  );

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented || isTypingTarget(event.target as HTMLElement | null)) return;
      const action = scrubActionOf(event);
      if (!action) return;
      event.preventDefault();
      dispatch(action);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [dispatch]);

  const goLive = useCallback(() => {
    setAt(null);
    if (range.kind === 'custom') setRange(parseRange(null));
  }, [range, setAt, setRange]);

  /** atMs: the instant every panel shows, or null for live; goLive also returns a custom window to the default. */
  return { range, setRange, atMs, setAt, bookmarkMs, tickSeconds, dispatch, goLive };
}

export type TimeTravel = ReturnType<typeof useTimeTravel>;
