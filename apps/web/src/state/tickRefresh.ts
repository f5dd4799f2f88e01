import { hashKey, type QueryClient, type QueryKey, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';

/** Live answers (flows, faults, a link's or a port's figures) are re-asked at most this often. */
export const LIVE_REFRESH_MS = 2000;

/**
 * The refresh bucket of a stream tick (`tick`: the newest sample's time): the ticks of one
 * `everyMs` bucket ask nothing new. Null when there is no readable tick.
 */
export function tickBucket(tick: string | null, everyMs: number): number | null {
  const ms = tick === null ? Number.NaN : Date.parse(tick);
  return Number.isFinite(ms) ? Math.floor(ms / Math.max(1, everyMs)) : null;
}

/**
 * Re-asks the question `key` (the one query shown, if anything shows it), unless a change to its
 * answer is on its way (that change answers with the newest state, and a read must not overwrite
 * it) or a read of it already is.
 */
export function refreshAnswer(client: QueryClient, key: QueryKey): Promise<void> {
  if (client.isMutating({ mutationKey: key }) > 0) return Promise.resolve();
  return client.refetchQueries({ queryKey: key, exact: true, type: 'active' }, { cancelRefetch: false });
}

/**
 * The dashboard's one refresh clock for live answers: the stream's tick. Each time the ticks move
 * into the next `everyMs` bucket the answer to `key` is asked again (refreshAnswer); it runs no
 * timer of its own, so a silent stream asks nothing and a hidden panel (inactive) neither.
 */
export function useTickRefresh(key: QueryKey, tick: string | null, everyMs: number, active: boolean): void {
  const client = useQueryClient();
  const bucket = active ? tickBucket(tick, everyMs) : null;
  const hash = hashKey(key);
  const keyRef = useRef(key);
  keyRef.current = key;
  const seen = useRef<{ hash: string; bucket: number } | null>(null);
  useEffect(() => {
    if (bucket === null) {
      seen.current = null;
      return;
    }
    const last = seen.current;
    seen.current = { hash, bucket };
    // The first bucket of a question is answered by its own first read.
    if (last === null || last.hash !== hash || last.bucket === bucket) return;
    void refreshAnswer(client, keyRef.current);
  }, [client, hash, bucket]);
}
