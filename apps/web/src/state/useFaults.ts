import { useCallback, useEffect, useRef, useState } from 'react';
import { describeError } from '../api/client.ts';
import type { Fault, FaultRequest } from '../api/types.ts';
import { useApi } from './ApiContext.tsx';

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
  const [faults, setFaults] = useState<Fault[] | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const lastFetch = useRef(0);
  const inFlight = useRef<AbortController | null>(null);

  const refresh = useCallback(() => {
    inFlight.current?.abort();
    const controller = new AbortController();
    inFlight.current = controller;
    lastFetch.current = Date.now();
    api.getFaults(controller.signal).then(
      (data) => setFaults(data.faults),
      (e: unknown) => {
        if (!controller.signal.aborted) setError(describeError(e));
      },
    );
  }, [api]);

  useEffect(() => {
    void tick;
    if (active && Date.now() - lastFetch.current >= FAULT_REFRESH_MS) refresh();
  }, [active, tick, refresh]);

  useEffect(() => {
    if (!active) lastFetch.current = 0;
  }, [active]);

  useEffect(() => () => inFlight.current?.abort(), []);

  const mutate = useCallback((call: (signal: AbortSignal) => Promise<{ faults: Fault[] }>) => {
    inFlight.current?.abort();
    const controller = new AbortController();
    inFlight.current = controller;
    setBusy(true);
    call(controller.signal).then(
      (data) => {
        setFaults(data.faults);
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

  const inject = useCallback(
    (request: FaultRequest) => mutate((signal) => api.injectFault(request, signal)),
    [api, mutate],
  );
  const clearAll = useCallback(() => mutate((signal) => api.clearFaults(signal)), [api, mutate]);

  return { faults, busy, error, inject, clearAll };
}
