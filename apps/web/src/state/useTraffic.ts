import { useCallback, useEffect, useRef, useState } from 'react';
import { describeError } from '../api/client.ts';
import type { Flow, TrafficRequest } from '../api/types.ts';
import { useApi } from './ApiContext.tsx';

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
  const [flows, setFlows] = useState<Flow[] | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const lastFetch = useRef(0);
  const inFlight = useRef<AbortController | null>(null);

  const refresh = useCallback(() => {
    inFlight.current?.abort();
    const controller = new AbortController();
    inFlight.current = controller;
    lastFetch.current = Date.now();
    api.getTraffic(controller.signal).then(
      (data) => setFlows(data.flows),
      (e: unknown) => {
        if (!controller.signal.aborted) setError(describeError(e));
      },
    );
  }, [api]);

  useEffect(() => {
    void tick;
    if (Date.now() - lastFetch.current >= FLOW_REFRESH_MS) refresh();
  }, [tick, refresh]);

  useEffect(() => () => inFlight.current?.abort(), []);

  const mutate = useCallback((call: (signal: AbortSignal) => Promise<{ flows: Flow[] }>) => {
    inFlight.current?.abort();
    const controller = new AbortController();
    inFlight.current = controller;
    setBusy(true);
    call(controller.signal).then(
      (data) => {
        setFlows(data.flows);
        setError(null);
        setBusy(false);
      },
      (e: unknown) => {
        if (controller.signal.aborted) return;
        setError(describeError(e));
        setBusy(false);
      },
    );
  }, []);

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

  return { flows, busy, error, start, replace, stop };
}
