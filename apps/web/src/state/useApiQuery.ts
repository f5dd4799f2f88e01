import {
  hashKey,
  keepPreviousData,
  type QueryObserverResult,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query';
import { useCallback, useMemo, useRef } from 'react';
import { ApiError, describeError } from '../api/apiError.ts';
import type { ApiClient } from '../api/client.ts';
import { useApi } from './ApiContext.tsx';
import { LIVE_REFRESH_MS, useTickRefresh } from './tickRefresh.ts';

export type ApiLoad<T> = (api: ApiClient, signal: AbortSignal) => Promise<T>;

/** An answer of the API: nothing asked, on its way, failed (and nothing to show), or here. */
export type Remote<T> =
  | { status: 'idle' }
  | { status: 'loading' }
  | { status: 'error'; message: string }
  | { status: 'ready'; data: T };

/** Why the last read or change failed, readable, with its HTTP status (0: none, e.g. unreachable). */
export interface ApiFailure {
  message: string;
  status: number;
}

export function failureOf(error: unknown): ApiFailure {
  return { message: describeError(error), status: error instanceof ApiError ? error.status : 0 };
}

export interface ApiQueryOptions<T = unknown> {
  /** Keep showing the previous answer while a new key loads (a moving window), instead of blanking. */
  keepPrevious?: boolean;
  /** How long an answer stays fresh (ms); default: for ever (answers about the past do not change). */
  staleTimeMs?: number;
  /** Asked again on stream ticks at most every `everyMs`; with `while`, only while it can change. */
  live?: true | { everyMs?: number; while?: (answer: T) => boolean };
  /** Forget the answer as soon as nothing shows it: shown again, it is asked again from scratch. */
  forget?: boolean;
  /** What the caller reads besides answer and failure; unwatched, an equal re-read re-renders nothing. */
  watch?: readonly ('updating' | 'answeredAtMs')[];
}

/** For a question changed with useApiChange: a read after a failed change clears the failure. */
export const WATCH_ANSWERED = ['answeredAtMs'] as const;

/** The query result's fields whose change re-renders: answer, failure, loading, and what the caller watches. */
export function notifyProps(
  result: Pick<QueryObserverResult, 'data' | 'error'> | undefined,
  watch: ApiQueryOptions['watch'] = [],
): (keyof QueryObserverResult)[] {
  const props: (keyof QueryObserverResult)[] = ['data', 'error'];
  if (!result || result.data === undefined || result.error || watch.includes('updating'))
    props.push('isFetching');
  if (watch.includes('answeredAtMs')) props.push('dataUpdatedAt');
  return props;
}

export type ApiAnswer<T> = Remote<T> & {
  /** A read is on its way; while an answer shows, only with `watch: ['updating']`. */
  updating: boolean;
  /** The last read failed (also while an older answer still shows); null after a success. */
  failure: ApiFailure | null;
  /** When the answer shown arrived (ms since the epoch); 0 before any, and 0 unless watched. */
  answeredAtMs: number;
  /** Ask again (a read on its way answers instead); the answer on screen stays until replaced. */
  reload: () => void;
  /** Forget the answer and ask again (loading meanwhile). */
  reset: () => void;
};

/** The one typed hook for server answers in TanStack Query's cache; `load` null asks nothing. */
export function useApiQuery<T>(
  key: readonly unknown[],
  load: ApiLoad<T> | null,
  options: ApiQueryOptions<T> = {},
): ApiAnswer<T> {
  const api = useApi();
  const client = useQueryClient();
  // An unasked question releases the one asked before, so reopening its panel asks again.
  const queryKey = load === null ? ['unasked', ...key.slice(0, 1)] : key;
  const live: Exclude<ApiQueryOptions<T>['live'], true> = options.live === true ? {} : options.live;
  const everyMs = live ? (live.everyMs ?? LIVE_REFRESH_MS) : 0;
  // Read when TanStack decides whether a change of the result re-renders (notifyProps).
  const latest = useRef<QueryObserverResult<T> | undefined>(undefined);
  const watch = options.watch;
  const notifyOnChangeProps = useCallback(() => notifyProps(latest.current, watch), [watch]);
  const query = useQuery({
    queryKey,
    queryFn: ({ signal }) => {
      if (!load) throw new Error('useApiQuery: no question to ask');
      return load(api, signal);
    },
    enabled: load !== null,
    ...(options.keepPrevious ? { placeholderData: keepPreviousData } : {}),
    ...(options.staleTimeMs !== undefined
      ? { staleTime: options.staleTimeMs }
      : live
        ? { staleTime: everyMs }
        : {}),
    ...(options.forget ? { gcTime: 0 } : {}),
    notifyOnChangeProps,
  });
  latest.current = query;
  const moving =
    live !== undefined &&
    load !== null &&
    (live.while === undefined || (query.data !== undefined && live.while(query.data)));
  useTickRefresh(queryKey, everyMs, moving);
  const hash = hashKey(queryKey);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the key is compared by its hash
  const reload = useCallback(
    () => void client.refetchQueries({ queryKey, exact: true }, { cancelRefetch: false }),
    [client, hash],
  );
  // biome-ignore lint/correctness/useExhaustiveDependencies: the key is compared by its hash
  const reset = useCallback(() => void client.resetQueries({ queryKey, exact: true }), [client, hash]);

  const { data, error } = query;
  // Unwatched, these two stay out of the answer (false, 0) so that they do not make a new one.
  const updating = data === undefined || error || watch?.includes('updating') ? query.isFetching : false;
  const answeredAtMs = watch?.includes('answeredAtMs') ? query.dataUpdatedAt : 0;
  const asked = load !== null;
  // One object per distinct answer: a component given it re-renders only when it changed.
  return useMemo((): ApiAnswer<T> => {
    const extra = { updating, failure: error ? failureOf(error) : null, answeredAtMs, reload, reset };
    if (!asked) return { status: 'idle', ...extra, updating: false, failure: null };
    if (data !== undefined) return { status: 'ready', data, ...extra };
    // Asked again after a failure: loading, not the old failure, until the new answer.
    if (error && !updating) return { status: 'error', message: describeError(error), ...extra };
    return { status: 'loading', ...extra };
  }, [asked, data, error, updating, answeredAtMs, reload, reset]);
}
