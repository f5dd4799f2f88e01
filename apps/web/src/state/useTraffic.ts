import type { FlowInfo, FlowPage } from '@fabscope/contracts';
import { useCallback, useMemo, useRef } from 'react';
import type { TrafficRequest } from '../api/types.ts';
import { LIVE_REFRESH_MS } from './tickRefresh.ts';
import { useApiChange } from './useApiChange.ts';
import { useApiQuery, WATCH_ANSWERED } from './useApiQuery.ts';

/** Every job's flows and bytes/s over the whole list (the API pages the flows themselves). */
export type JobTotals = FlowPage['jobs'];

interface FlowsShown {
  flows: FlowInfo[];
  jobs?: JobTotals;
}

/** Flows read for the traffic panel: a tenth of the largest page, re-read every tick. */
export const FLOWS_LISTED = 500;
/** Flows read while their rates are compared with a contention check's (the largest page). */
export const FLOWS_MEASURED = 5000;

/** Active flows, re-read on ticks as routing adapts; `allFlows` reads the largest page. */
export function useTraffic(allFlows = false) {
  const changeFailed = useRef(false);
  const limit = allFlows ? FLOWS_MEASURED : FLOWS_LISTED;
  const key = useMemo(() => ['traffic', limit] as const, [limit]);
  // The first page of the flows (the API pages them): what the panel lists, grouped by job.
  const answer = useApiQuery<FlowsShown>(
    key,
    async (api, signal) => {
      const page = await api.getTraffic(signal, limit);
      return { flows: page.flows, jobs: page.jobs };
    },
    // Read times are watched only while a change failed, so equal re-reads re-render nothing.
    { live: { everyMs: LIVE_REFRESH_MS }, ...(changeFailed.current ? { watch: WATCH_ANSWERED } : {}) },
  );
  const { change, busy, failure, changeFailed: failed } = useApiChange<FlowsShown>(key, answer.answeredAtMs);
  changeFailed.current = failed;
  const start = useCallback(
    (request: TrafficRequest) =>
      change(async (api, signal) => ({ flows: (await api.startTraffic(request, signal)).flows })),
    [change],
  );
  const replace = useCallback(
    (request: TrafficRequest) =>
      change(async (api, signal) => {
        await api.stopTraffic(signal);
        return { flows: (await api.startTraffic(request, signal)).flows };
      }),
    [change],
  );
  const stop = useCallback(() => change((api, signal) => api.stopTraffic(signal)), [change]);

  const shown = failure ?? answer.failure;
  const unavailable = shown?.status === 409 ? shown.message : null;
  const error = unavailable === null ? (shown?.message ?? null) : null;
  const data = answer.status === 'ready' ? answer.data : null;
  // One object while nothing changed: the panels given it re-render only on a change.
  return useMemo(
    () => ({
      /** The first page of flows: FLOWS_LISTED, or FLOWS_MEASURED while every rate is asked for. */
      flows: data ? data.flows : null,
      /** Every job's totals, all pages together; null until read (or after a start, until re-read). */
      jobTotals: data ? (data.jobs ?? null) : null,
      busy,
      error,
      /** Why traffic cannot be started or listed (no emulator), or null. */
      unavailable,
      start,
      /** Stops every flow, then starts `request`: only these flows run afterwards. */
      replace,
      stop,
    }),
    [data, busy, error, unavailable, start, replace, stop],
  );
}

export type TrafficState = ReturnType<typeof useTraffic>;
