import { useEffect, useRef } from 'react';
import type { StreamReport, StreamSource } from '../api/stream/streamEvents.ts';
import { openStream } from '../api/stream/streamSource.ts';
import type { StreamView } from '../api/types.ts';
import { streamSilenceLimitSeconds } from '../lib/freshness.ts';
import type { TierGroups } from '../lib/tierGroups.ts';
import {
  type FabricStreamState,
  INITIAL_STREAM_STATE,
  type LiveStream,
  useLiveStream,
} from './liveStream.ts';

/** The one EventSource on `/api/v1/stream`, parsed in a worker, reopened with back-off; null view: none. */

const RETRY_MIN_MS = 1000;
const RETRY_MAX_MS = 30_000;

/** The drawn topology; a message of another version calls `onTopologyChanged` and is not shown. */
export function useFabricStream(
  view: StreamView | null,
  topology?: { channels: number; version: number; tiers?: TierGroups | null },
  onTopologyChanged?: (version: number) => void,
): LiveStream {
  const stream = useLiveStream();
  const channels = topology?.channels;
  const version = topology?.version;
  const tiers = topology?.tiers ?? undefined;
  // The newest callback, without re-opening the stream when it changes.
  const changed = useRef(onTopologyChanged);
  changed.current = onTopologyChanged;

  useEffect(() => {
    const setState = (next: FabricStreamState | ((s: FabricStreamState) => FabricStreamState)) =>
      typeof next === 'function' ? stream.update(next) : stream.set(next);
    // A new version of the same view keeps the snapshot on screen until the first message of it.
    setState((s) =>
      s.snapshot !== null && view !== null ? { ...s, connection: 'connecting' } : INITIAL_STREAM_STATE,
    );
    if (view === null) return;
    const request = { view, channels, version, tiers };
    let source: StreamSource | null = null;
    let watchdog: ReturnType<typeof setTimeout> | undefined;
    let retry: ReturnType<typeof setTimeout> | undefined;
    let retryMs = RETRY_MIN_MS;
    let disposed = false;
    let askedVersion: number | undefined;
    // The server's tick, from the last message's health (1 s until one arrives).
    let intervalMs: number | undefined;

    const armWatchdog = () => {
      clearTimeout(watchdog);
      watchdog = setTimeout(
        () => {
          setState((s) => (s.silent ? s : { ...s, silent: true }));
        },
        streamSilenceLimitSeconds(intervalMs) * 1000 + 50,
      );
    };

    const report = (r: StreamReport) => {
      if (disposed) return;
      switch (r.kind) {
        case 'open':
          retryMs = RETRY_MIN_MS;
          setState((s) => ({ ...s, connection: 'open' }));
          return;
        case 'message':
          intervalMs = r.snapshot.health.intervalMs ?? intervalMs;
          armWatchdog();
          setState({
            snapshot: r.snapshot,
            receivedAtMs: Date.now(),
            connection: 'open',
            silent: false,
            error: null,
          });
          return;
        case 'topology':
          armWatchdog();
          // Once per version: a big topology takes longer to fetch than a tick.
          if (r.version !== askedVersion) changed.current?.(r.version);
          askedVersion = r.version;
          return;
        case 'bad':
          armWatchdog();
          setState((s) => ({ ...s, error: `Bad stream message: ${r.message}` }));
          return;
        case 'error':
          if (r.closed) {
            // The browser gave up (e.g. an HTTP error answer); retry ourselves with back-off.
            source?.close();
            source = null;
            retry = setTimeout(open, retryMs);
            retryMs = Math.min(RETRY_MAX_MS, retryMs * 2);
          }
          setState((s) => ({
            ...s,
            connection: 'reconnecting',
            error: 'Live stream connection lost; reconnecting…',
          }));
      }
    };

    const open = () => {
      if (disposed) return;
      source = openStream(request, report);
    };

    open();
    armWatchdog();
    return () => {
      disposed = true;
      clearTimeout(watchdog);
      clearTimeout(retry);
      source?.close();
    };
  }, [stream, view, channels, version, tiers]);

  return stream;
}
