import { useCallback, useEffect, useRef, useState } from 'react';
import { describeError } from '../api/client.ts';

/** An answer of the API that is asked for on demand: nothing asked yet, on its way, failed, or here. */
export type Remote<T> =
  | { status: 'idle' }
  | { status: 'loading' }
  | { status: 'error'; message: string }
  | { status: 'ready'; data: T };

/**
 * Runs `load` whenever it changes (callers memoize it on its inputs) and keeps the latest answer;
 * a newer request aborts the older one. `load` null means there is nothing to ask (idle). A
 * reload keeps the answer shown until the next one arrives (no blank between refreshes).
 */
export function useRemote<T>(load: ((signal: AbortSignal) => Promise<T>) | null): {
  state: Remote<T>;
  reload: () => void;
} {
  const [state, setState] = useState<Remote<T>>({ status: 'idle' });
  const [attempt, setAttempt] = useState(0);
  const lastLoad = useRef<typeof load>(null);

  useEffect(() => {
    void attempt;
    const again = load === lastLoad.current;
    lastLoad.current = load;
    if (!load) {
      setState({ status: 'idle' });
      return;
    }
    const controller = new AbortController();
    // Asked again (reload): the answer on screen stays until the new one replaces it.
    setState((s) => (again && s.status === 'ready' ? s : { status: 'loading' }));
    load(controller.signal).then(
      (data) => setState({ status: 'ready', data }),
      (error: unknown) => {
        if (!controller.signal.aborted) setState({ status: 'error', message: describeError(error) });
      },
    );
    return () => controller.abort();
  }, [load, attempt]);

  const reload = useCallback(() => setAttempt((n) => n + 1), []);
  return { state, reload };
}
