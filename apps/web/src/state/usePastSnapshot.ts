import { useMemo } from 'react';
import type { ApiClient } from '../api/client.ts';
import type { Health, LinksAnswer, LiveSnapshot, Summary, Topology } from '../api/types.ts';
import { pastSnapshot } from '../lib/historySnapshot.ts';
import { MAX_DRAWN_LINKS } from '../lib/layout.ts';
import { channelIndexById } from '../lib/route.ts';
import { formatInstant } from '../lib/timeRange.ts';
import type { Remote } from './useApiQuery.ts';
import { useApiQuery } from './useApiQuery.ts';

export interface InstantAnswer {
  links: LinksAnswer;
  summary: Summary;
}

/** The cache key and question of one past instant: every link direction and the summary. */
export function instantQuery(ms: number | null) {
  const time = ms === null ? null : formatInstant(ms);
  return {
    key: ['instant', time] as const,
    load:
      time === null
        ? null
        : async (api: ApiClient, signal: AbortSignal): Promise<InstantAnswer> => {
            const [links, summary] = await Promise.all([
              api.getLinksAt(time, signal),
              api.getSummaryAt(time, signal),
            ]);
            return { links, summary };
          },
  };
}

/**
 * An instant this close to the newest sample may be answered before every sample has arrived
 * (a late scrape, a recording rule not yet evaluated): its answer is asked again when it is shown
 * again after RECENT_STALE_MS. Older instants are final.
 */
const RECENT_MS = 60_000;
const RECENT_STALE_MS = 10_000;

/** The time bar says when a newer instant is on its way. */
const WATCH_UPDATING = ['updating'] as const;

export function useInstant(ms: number | null, latestMs: number | null, keepPrevious = false) {
  const q = instantQuery(ms);
  const recent = ms !== null && (latestMs === null || latestMs - ms < RECENT_MS);
  return useApiQuery(q.key, q.load, {
    keepPrevious,
    ...(keepPrevious ? { watch: WATCH_UPDATING } : {}),
    ...(recent ? { staleTimeMs: RECENT_STALE_MS } : {}),
  });
}

/**
 * The fabric at a past instant in the live stream's shape (full or compact, as the live view
 * uses), so every panel shows it unchanged. While a newer instant loads, the previous stays.
 */
export function usePastSnapshot(
  atMs: number | null,
  latestMs: number | null,
  fabric: Topology | null,
  health: Health | null,
): { state: Remote<LiveSnapshot>; updating: boolean } {
  const answer = useInstant(atMs, latestMs, true);
  const compact = useMemo(
    () =>
      fabric && fabric.links.length > MAX_DRAWN_LINKS
        ? { channelIndex: channelIndexById(fabric), channels: fabric.links.length * 2 }
        : null,
    [fabric],
  );
  const data = answer.status === 'ready' ? answer.data : null;
  const store = health?.store ?? 'embedded';
  const intervalMs = health?.intervalMs ?? 1000;
  const staleAfterSeconds = health?.staleAfterSeconds ?? Number.POSITIVE_INFINITY;
  const snapshot = useMemo(
    () =>
      data
        ? pastSnapshot(
            data.links,
            data.summary,
            // A past instant is as it was stored: its age and staleness are not the live data's.
            {
              status: 'ok',
              store,
              lastSampleAgeSeconds: null,
              intervalMs,
              staleAfterSeconds,
            },
            compact,
          )
        : null,
    [data, store, intervalMs, staleAfterSeconds, compact],
  );
  if (answer.status === 'ready' && snapshot)
    return { state: { status: 'ready', data: snapshot }, updating: answer.updating };
  if (answer.status === 'ready') return { state: { status: 'loading' }, updating: true };
  return { state: answer, updating: answer.updating };
}
