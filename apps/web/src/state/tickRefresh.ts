import { hashKey, type QueryClient, type QueryKey, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { type LiveStream, useLiveStream } from './liveStream.ts';

/** Live answers (flows, faults, a link's or a port's figures) are re-asked at most this often. */
export const LIVE_REFRESH_MS = 2000;

/** A tick's refresh bucket: ticks within one `everyMs` ask nothing new; null without a readable tick. */
export function tickBucket(tick: string | null, everyMs: number): number | null {
  const ms = tick === null ? Number.NaN : Date.parse(tick);
  return Number.isFinite(ms) ? Math.floor(ms / Math.max(1, everyMs)) : null;
}

/** Re-asks the question `key`, unless a change to its answer (newer news) or a read is on its way. */
export function refreshAnswer(client: QueryClient, key: QueryKey): Promise<void> {
  if (client.isMutating({ mutationKey: key }) > 0) return Promise.resolve();
  return client.refetchQueries({ queryKey: key, exact: true, type: 'active' }, { cancelRefetch: false });
}

/** Calls `refresh` as the stream's newest sample moves into another `everyMs` bucket; returns the unsubscription. */
export function onTickBuckets(stream: LiveStream, everyMs: number, refresh: () => void): () => void {
  const timeNow = () => stream.get().snapshot?.time ?? null;
  let seenTime = timeNow();
  let seen = tickBucket(seenTime, everyMs);
  return stream.subscribe(() => {
    // The state changes more often than the tick: a tick already seen is not parsed again.
    const time = timeNow();
    if (time === seenTime) return;
    seenTime = time;
    const bucket = tickBucket(time, everyMs);
    if (bucket === null || bucket === seen) return;
    const first = seen === null;
    seen = bucket;
    if (!first) refresh();
  });
}

/** The one refresh clock: `key` is asked again as ticks enter the next bucket; no timer. */
export function useTickRefresh(key: QueryKey, everyMs: number, active: boolean): void {
  const client = useQueryClient();
  const stream = useLiveStream();
  const hash = hashKey(key);
  const keyRef = useRef(key);
  keyRef.current = key;
  // biome-ignore lint/correctness/useExhaustiveDependencies: the key is compared by its hash
  useEffect(() => {
    if (!active) return;
    return onTickBuckets(stream, everyMs, () => void refreshAnswer(client, keyRef.current));
  }, [client, stream, hash, everyMs, active]);
}
