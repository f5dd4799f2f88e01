import { useCallback } from 'react';
import type { Flow, TrafficRequest } from '../api/types.ts';
import { useApi } from './ApiContext.tsx';
import { useTickedResource } from './useTickedResource.ts';

/** Refresh the flow list at most this often, on stream ticks (no timer of its own). */
const FLOW_REFRESH_MS = 2000;

export interface TrafficState {
  flows: Flow[] | null;
  busy: boolean;
  error: string | null;
  start: (request: TrafficRequest) => void;
  /** Stops every flow, then starts `request`: only these flows run afterwards. */
  replace: (request: TrafficRequest) => void;
  stop: () => void;
}

/**
 * Active flows. Their rates change as routing adapts, so the list is re-read on the stream's
 * tick (`tick` changes once per message), throttled; it never runs a clock of its own.
 */
export function useTraffic(tick: string | null): TrafficState {
  const api = useApi();
  // The first page of the flows (the API pages them): what the panel lists, grouped by job.
  const read = useCallback(
    async (signal: AbortSignal): Promise<{ flows: Flow[] }> => ({
      flows: (await api.getTraffic(signal)).flows,
    }),
    [api],
  );
  const { data, busy, error, mutate } = useTickedResource(read, tick, FLOW_REFRESH_MS);
  const start = useCallback(
    (request: TrafficRequest) => mutate((signal) => api.startTraffic(request, signal)),
    [api, mutate],
  );
  const replace = useCallback(
    (request: TrafficRequest) =>
      mutate(async (signal) => {
        await api.stopTraffic(signal);
        return api.startTraffic(request, signal);
      }),
    [api, mutate],
  );
  const stop = useCallback(() => mutate((signal) => api.stopTraffic(signal)), [api, mutate]);

  return { flows: data?.flows ?? null, busy, error, start, replace, stop };
}
