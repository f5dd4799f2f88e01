import type { LinksAnswer, Summary, Topology } from '@fabscope/contracts';
import { useMemo } from 'react';
import { snapshotOf } from '../../api/stream/stream.ts';
import type { LiveSnapshot, StreamView } from '../../api/types.ts';
import { MAX_DRAWN_LINKS } from '../../lib/layout.ts';
import { summarizedTierGroups } from '../../lib/tierGroups.ts';
import { formatInstant } from '../../lib/timeRange.ts';
import { latestMsOf, useLiveSelector } from '../../state/liveStream.ts';
import { type ApiLoad, type Remote, useApiQuery } from '../../state/useApiQuery.ts';

/** An instant this recent may lack samples: asked again after RECENT_STALE_MS. Older ones are final. */
const RECENT_MS = 60_000;
const RECENT_STALE_MS = 10_000;

/** The time bar says when a newer instant is on its way. */
const WATCH_UPDATING = ['updating'] as const;

/** One past instant: every link direction and the summary. */
export function useInstant(ms: number | null, latestMs: number | null) {
  const time = ms === null ? null : formatInstant(ms);
  const recent = ms !== null && (latestMs === null || latestMs - ms < RECENT_MS);
  return useApiQuery(
    ['instant', time],
    time === null
      ? null
      : async (api, signal): Promise<{ links: LinksAnswer; summary: Summary }> => {
          const [links, summary] = await Promise.all([
            api.getLinksAt(time, signal),
            api.getSummaryAt(time, signal),
          ]);
          return { links, summary };
        },
    recent ? { staleTimeMs: RECENT_STALE_MS } : {},
  );
}

/** The fabric at a past instant in the live stream's shape; the previous stays while the next loads. */
export function usePastSnapshot(
  atMs: number | null,
  fabric: Topology | null,
): { state: Remote<LiveSnapshot>; updating: boolean } {
  const view: StreamView = fabric && fabric.links.length > MAX_DRAWN_LINKS ? 'compact' : 'full';
  const tiers = useMemo(() => (fabric ? summarizedTierGroups(fabric) : null), [fabric]);
  const time = atMs === null ? null : formatInstant(atMs);
  const channels = fabric ? fabric.links.length * 2 : undefined;
  const recent = useLiveSelector((s) => {
    const latestMs = latestMsOf(s);
    return atMs !== null && (latestMs === null || latestMs - atMs < RECENT_MS);
  });
  const load: ApiLoad<LiveSnapshot> | null =
    time === null || !fabric
      ? null
      : async (api, signal) =>
          view === 'compact'
            ? api.getCompactInstant(time, { channels, tiers: tiers ?? undefined }, signal)
            : snapshotOf(await api.getInstant(time, view, signal));
  // A past instant's message, in the live view's encoding.
  const answer = useApiQuery(['instant-message', time, view, channels ?? null], load, {
    keepPrevious: true,
    watch: WATCH_UPDATING,
    ...(recent ? { staleTimeMs: RECENT_STALE_MS } : {}),
  });
  const data = answer.status === 'ready' ? answer.data : null;
  const store = useLiveSelector((s) => s.snapshot?.health.store ?? 'embedded');
  const intervalMs = useLiveSelector((s) => s.snapshot?.health.intervalMs ?? 1000);
  const staleAfterSeconds = useLiveSelector(
    (s) => s.snapshot?.health.staleAfterSeconds ?? Number.POSITIVE_INFINITY,
  );
  const snapshot = useMemo(
    () =>
      data
        ? {
            ...data,
            // A past instant is as it was stored: its age and staleness are not the live data's.
            health: {
              status: 'ok' as const,
              store,
              lastSampleAgeSeconds: null,
              intervalMs,
              staleAfterSeconds,
            },
          }
        : null,
    [data, store, intervalMs, staleAfterSeconds],
  );
  if (answer.status === 'ready' && snapshot)
    return { state: { status: 'ready', data: snapshot }, updating: answer.updating };
  if (answer.status === 'ready') return { state: { status: 'loading' }, updating: true };
  return { state: answer, updating: answer.updating };
}
