import { useCallback } from 'react';
import type { Fault, FaultRequest } from '../api/types.ts';
import { useApi } from './ApiContext.tsx';
import { useTickedResource } from './useTickedResource.ts';

/** Re-read the active faults at most this often, on stream ticks, while the panel is shown. */
const FAULT_REFRESH_MS = 3000;

export interface FaultsState {
  faults: Fault[] | null;
  busy: boolean;
  error: string | null;
  inject: (request: FaultRequest) => void;
  /** Repairs everything (DELETE /faults). */
  clearAll: () => void;
}

/**
 * Active emulator faults. Read only while the panel is shown (`active`), on the stream's tick,
 * throttled: no clock of its own. Changes go out through the API client (token, readable errors).
 */
export function useFaults(active: boolean, tick: string | null): FaultsState {
  const api = useApi();
  const read = useCallback((signal: AbortSignal) => api.getFaults(signal), [api]);
  const { data, busy, error, mutate } = useTickedResource(read, tick, FAULT_REFRESH_MS, active);
  const inject = useCallback(
    (request: FaultRequest) => mutate((signal) => api.injectFault(request, signal)),
    [api, mutate],
  );
  const clearAll = useCallback(() => mutate((signal) => api.clearFaults(signal)), [api, mutate]);

  return { faults: data?.faults ?? null, busy, error, inject, clearAll };
}
