import { useCallback, useEffect, useRef, useState } from 'react';
import { ApiError, describeError } from '../api/client.ts';
import { ChangeQueue } from '../lib/changeQueue.ts';

export interface TickedResource<T> {
  data: T | null;
  busy: boolean;
  error: string | null;
  /** The HTTP status of the last failed read or change (a 409: the API cannot do this here). */
  errorStatus: number | null;
  /** Sends a change; its answer (the whole new state) replaces `data`. */
  mutate: (call: (signal: AbortSignal) => Promise<T>) => void;
}

/**
 * Server state re-read on the stream's tick (`tick` changes once per message), at most every
 * `refreshMs` and only while `active`: it never runs a clock of its own. A newer read aborts the
 * older one, and a change aborts any read, so a slow read cannot overwrite a change made after
 * it; changes themselves are queued, never aborted.
 */
export function useTickedResource<T>(
  read: (signal: AbortSignal) => Promise<T>,
  tick: string | null,
  refreshMs: number,
  active = true,
): TickedResource<T> {
  const [data, setData] = useState<T | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setErrorText] = useState<string | null>(null);
  const [errorStatus, setErrorStatus] = useState<number | null>(null);
  const setError = useCallback((e: unknown) => {
    setErrorText(e === null ? null : describeError(e));
    setErrorStatus(e instanceof ApiError ? e.status : null);
  }, []);
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
    read(controller.signal).then(
      (answer) => {
        setData(answer);
        setError(null);
      },
      (e: unknown) => {
        if (!controller.signal.aborted) setError(e);
      },
    );
  }, [read, setError]);

  useEffect(() => {
    void tick;
    if (active && Date.now() - lastFetch.current >= refreshMs) refresh();
  }, [active, tick, refresh, refreshMs]);

  useEffect(() => {
    if (!active) lastFetch.current = 0;
  }, [active]);

  useEffect(() => () => inFlight.current?.abort(), []);

  const unmounted = useRef<AbortController>(new AbortController());
  useEffect(() => {
    const controller = new AbortController();
    unmounted.current = controller;
    return () => controller.abort();
  }, []);
  const queue = useRef<ChangeQueue | null>(null);
  queue.current ??= new ChangeQueue((isBusy) => {
    mutating.current = isBusy;
    if (!unmounted.current.signal.aborted) setBusy(isBusy);
  });

  // Changes run one after another, each to its end (ChangeQueue): a stop-then-start is never cut
  // in half by a newer change or a tick's read; only leaving the page aborts them.
  const mutate = useCallback(
    (call: (signal: AbortSignal) => Promise<T>) => {
      inFlight.current?.abort();
      inFlight.current = null;
      const signal = unmounted.current.signal;
      queue.current
        ?.run(() => call(signal))
        .then(
          (answer) => {
            if (signal.aborted) return;
            setData(answer);
            setError(null);
          },
          (e: unknown) => {
            if (!signal.aborted) setError(e);
          },
        );
    },
    [setError],
  );

  return { data, busy, error, errorStatus, mutate };
}
