import { type ApiLoad, useApiQuery } from './useApiQuery.ts';
import type { Remote } from './useRemote.ts';

/** Live answers (a link's flows, jobs) are re-asked at most this often, on stream ticks. */
export const LIVE_REFRESH_MS = 2000;

/**
 * A live answer in the query cache: asked when its key changes, and again as the stream's ticks
 * (`tick`, the newest sample's time) move into the next LIVE_REFRESH_MS bucket; the previous
 * answer stays on screen meanwhile. No clock of its own.
 */
export function useLiveAnswer<T>(
  key: readonly unknown[],
  load: ApiLoad<T> | null,
  tick: string | null,
): Remote<T> & { updating: boolean } {
  const ms = tick === null ? Number.NaN : Date.parse(tick);
  const bucket = Number.isFinite(ms) ? Math.floor(ms / LIVE_REFRESH_MS) : 0;
  return useApiQuery([...key, bucket], load, { keepPrevious: true });
}
