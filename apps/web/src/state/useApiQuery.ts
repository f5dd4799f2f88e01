import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { ApiClient } from '../api/client.ts';
import { describeError } from '../api/client.ts';
import { useApi } from './ApiContext.tsx';
import type { Remote } from './useRemote.ts';

export type ApiLoad<T> = (api: ApiClient, signal: AbortSignal) => Promise<T>;

export interface ApiQueryOptions {
  /** Keep showing the previous answer while a new key loads (a moving window), instead of blanking. */
  keepPrevious?: boolean;
  /** How long an answer stays fresh (ms); default: for ever (answers about the past do not change). */
  staleTimeMs?: number;
}

/**
 * The one typed hook for server answers kept in the query cache: `key` names the question,
 * `load` asks it with the query's AbortSignal (null: nothing to ask). The answer comes back in
 * the dashboard's `Remote` shape, with `updating` true while a newer answer is on its way.
 */
export function useApiQuery<T>(
  key: readonly unknown[],
  load: ApiLoad<T> | null,
  options: ApiQueryOptions = {},
): Remote<T> & { updating: boolean } {
  const api = useApi();
  const query = useQuery({
    queryKey: key,
    queryFn: ({ signal }) => {
      if (!load) throw new Error('useApiQuery: no question to ask');
      return load(api, signal);
    },
    enabled: load !== null,
    ...(options.keepPrevious ? { placeholderData: keepPreviousData } : {}),
    ...(options.staleTimeMs !== undefined ? { staleTime: options.staleTimeMs } : {}),
  });
  const updating = query.isFetching;
  if (load === null) return { status: 'idle', updating: false };
  if (query.data !== undefined) return { status: 'ready', data: query.data, updating };
  if (query.error) return { status: 'error', message: describeError(query.error), updating };
  return { status: 'loading', updating };
}
