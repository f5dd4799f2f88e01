import { useCallback, useEffect, useRef, useState } from 'react';
import { describeError } from '../api/client.ts';

export interface TickedResource<T> {
  data: T | null;
  busy: boolean;
  error: string | null;
  /** Sends a change; its answer (the whole new state) replaces `data`. */
  mutate: (call: (signal: AbortSignal) => Promise<T>) => void;
}

/**
 * Server state re-read on the stream's tick (`tick` changes once per message), at most every
 * `refreshMs` and only while `active`: it never runs a clock of its own. A newer request aborts
 * the older one, so a slow read cannot overwrite a change made after it.
 */
export function useTickedResource<T>(
  read: (signal: AbortSignal) => Promise<T>,
  tick: string | null,
  refreshMs: number,
  active = true,
): TickedResource<T> {
  const [data, setData] = useState<T | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const lastFetch = useRef(0);
  const inFlight = useRef<AbortController | null>(null);
  const mutating = useRef(false);

  const refresh = useCallback(() => {
    // A change on its way answers with the newest state: a tick's read must not abort it (that
    // would leave the controls busy for good).
    if (mutating.current) return;
    inFlight.current?.abort();
    const controller = new AbortController();
    inFlight.current = controller;
    lastFetch.current = Date.now();
    read(controller.signal).then(setData, (e: unknown) => {
      if (!controller.signal.aborted) setError(describeError(e));
    });
  }, [read]);

  useEffect(() => {
    void tick;
    if (active && Date.now() - lastFetch.current >= refreshMs) refresh();
  }, [active, tick, refresh, refreshMs]);

  useEffect(() => {
    if (!active) lastFetch.current = 0;
  }, [active]);

  useEffect(() => () => inFlight.current?.abort(), []);

  const mutate = useCallback((call: (signal: AbortSignal) => Promise<T>) => {
    inFlight.current?.abort();
    const controller = new AbortController();
    inFlight.current = controller;
    mutating.current = true;
    setBusy(true);
    call(controller.signal).then(
      (answer) => {
        mutating.current = false;
        setData(answer);
        setError(null);
        setBusy(false);
      },
      (e: unknown) => {
        // Aborted by a newer change, which clears busy itself.
        if (controller.signal.aborted) return;
        mutating.current = false;
        setError(describeError(e));
        setBusy(false);
      },
    );
  }, []);

  return { data, busy, error, mutate };
}
