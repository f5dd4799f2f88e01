import {
  hashKey,
  type MutationOptions,
  type QueryClient,
  type QueryKey,
  useIsMutating,
  useMutation,
  useQueryClient,
} from '@tanstack/react-query';
import { useCallback, useEffect, useRef } from 'react';
import type { ApiClient } from '../api/client.ts';
import { useApi } from './ApiContext.tsx';
import { type ApiFailure, failureOf } from './useApiQuery.ts';

/** A change sent to the API: its answer is the question's whole new answer. */
export type ApiCall<T> = (api: ApiClient, signal: AbortSignal) => Promise<T>;

/** Changes to one answer run in one scope, cancel a read on its way, and replace the answer shown. */
export function changeOptions<T>(
  client: QueryClient,
  api: ApiClient,
  key: QueryKey,
  signal: () => AbortSignal,
): MutationOptions<T, Error, ApiCall<T>> {
  return {
    mutationKey: key,
    scope: { id: hashKey(key) },
    mutationFn: (call) => call(api, signal()),
    onMutate: () => client.cancelQueries({ queryKey: key, exact: true }),
    onSuccess: (answer) => {
      if (!signal().aborted) client.setQueryData(key, answer);
    },
  };
}

export interface ApiChange<T> {
  /** Sends a change; queued behind any other change to the same answer. */
  change: (call: ApiCall<T>) => void;
  /** A change to this answer is queued or on its way. */
  busy: boolean;
  /** The last change failed, and no read of the answer has succeeded since; null otherwise. */
  failure: ApiFailure | null;
  /** The last change failed; the answer's reads must be watched for a newer read to clear it. */
  changeFailed: boolean;
}

/** Changes to the answer of `key`; a read succeeding after a failed change clears that failure. */
export function useApiChange<T>(key: QueryKey, answeredAtMs: number): ApiChange<T> {
  const client = useQueryClient();
  const api = useApi();
  // Aborted when the page leaves (a fresh one per mount: StrictMode mounts twice).
  const leaving = useRef(new AbortController());
  useEffect(() => {
    const controller = new AbortController();
    leaving.current = controller;
    return () => controller.abort();
  }, []);
  const mutation = useMutation(changeOptions<T>(client, api, key, () => leaving.current.signal));
  const busy = useIsMutating({ mutationKey: key }) > 0;
  const { mutate } = mutation;
  const change = useCallback((call: ApiCall<T>) => mutate(call), [mutate]);
  const changeFailed = mutation.isError && !leaving.current.signal.aborted;
  const failed = changeFailed && answeredAtMs < mutation.submittedAt ? failureOf(mutation.error) : null;
  return { change, busy, failure: failed, changeFailed };
}
