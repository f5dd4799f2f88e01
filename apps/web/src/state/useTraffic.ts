import { useCallback } from 'react';
import type { Flow, FlowPage, TrafficRequest } from '../api/types.ts';
import { useApi } from './ApiContext.tsx';
import { useTickedResource } from './useTickedResource.ts';

/** Refresh the flow list at most this often, on stream ticks (no timer of its own). */
const FLOW_REFRESH_MS = 2000;

/** Every job's flows and bytes/s over the whole list (the API pages the flows themselves). */
export type JobTotals = FlowPage['jobs'];

export interface TrafficState {
  /** The first page of the flows (up to 500). */
  flows: Flow[] | null;
  /** Every job's totals, all pages together; null until read (or after a start, until re-read). */
  jobTotals: JobTotals | null;
  busy: boolean;
  error: string | null;
  /**
   * Why traffic cannot be started or listed here (the API has no emulator: a live fabric, whose
   * traffic is its jobs'), or null.
   */
  unavailable: string | null;
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
    async (signal: AbortSignal): Promise<{ flows: Flow[]; jobs?: JobTotals }> => {
      const page = await api.getTraffic(signal);
      return { flows: page.flows, jobs: page.jobs };
    },
    [api],
  );
  const { data, busy, error, errorStatus, mutate } = useTickedResource(read, tick, FLOW_REFRESH_MS);
  const unavailable = errorStatus === 409 ? error : null;
  const start = useCallback(
    (request: TrafficRequest) =>
      mutate(async (signal) => ({ flows: (await api.startTraffic(request, signal)).flows })),
    [api, mutate],
  );
  const replace = useCallback(
    (request: TrafficRequest) =>
      mutate(async (signal) => {
        await api.stopTraffic(signal);
        return { flows: (await api.startTraffic(request, signal)).flows };
      }),
    [api, mutate],
  );
  const stop = useCallback(() => mutate((signal) => api.stopTraffic(signal)), [api, mutate]);

  return {
    flows: data?.flows ?? null,
    jobTotals: data?.jobs ?? null,
    busy,
    error: unavailable === null ? error : null,
    unavailable,
    start,
    replace,
    stop,
  };
}
