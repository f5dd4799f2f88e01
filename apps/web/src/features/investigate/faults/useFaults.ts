import type { FaultInfo, FaultList, FaultRequest } from '@fabscope/contracts';
import { useCallback, useMemo } from 'react';
import { useApiChange } from '../../../state/useApiChange.ts';
import { useApiQuery, WATCH_ANSWERED } from '../../../state/useApiQuery.ts';

/** Re-read the active faults at most this often, on stream ticks, while the panel is shown. */
const FAULT_REFRESH_MS = 3000;

export interface FaultsState {
  faults: FaultInfo[] | null;
  busy: boolean;
  error: string | null;
  inject: (request: FaultRequest) => void;
  /** Repairs everything (DELETE /faults). */
  clearAll: () => void;
}

const FAULTS_KEY = ['faults'] as const;

/** Active emulator faults, read on the stream's tick only while the panel is shown. */
export function useFaults(active: boolean): FaultsState {
  const answer = useApiQuery<FaultList>(FAULTS_KEY, active ? (api, signal) => api.getFaults(signal) : null, {
    live: { everyMs: FAULT_REFRESH_MS },
    watch: WATCH_ANSWERED,
  });
  const { change, busy, failure } = useApiChange<FaultList>(FAULTS_KEY, answer.answeredAtMs);
  const inject = useCallback(
    (request: FaultRequest) => change((api, signal) => api.injectFault(request, signal)),
    [change],
  );
  const clearAll = useCallback(() => change((api, signal) => api.clearFaults(signal)), [change]);

  const faults = answer.status === 'ready' ? answer.data.faults : null;
  const error = (failure ?? answer.failure)?.message ?? null;
  return useMemo(() => ({ faults, busy, error, inject, clearAll }), [faults, busy, error, inject, clearAll]);
}
