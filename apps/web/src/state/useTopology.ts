import { useCallback, useEffect, useState } from 'react';
import { describeError } from '../api/client.ts';
import type { Topology } from '../api/types.ts';
import { useApi } from './ApiContext.tsx';

export type Loadable<T> =
  | { status: 'loading' }
  | { status: 'error'; message: string }
  | { status: 'ready'; data: T };

/** The fabric topology, fetched once (it changes only when the fabric is re-cabled). */
export function useTopology(): { topology: Loadable<Topology>; reload: () => void } {
  const api = useApi();
  const [topology, setTopology] = useState<Loadable<Topology>>({ status: 'loading' });
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    void attempt;
    const controller = new AbortController();
    setTopology({ status: 'loading' });
    api.getTopology(controller.signal).then(
      (data) => setTopology({ status: 'ready', data }),
      (error: unknown) => {
        if (!controller.signal.aborted) setTopology({ status: 'error', message: describeError(error) });
      },
    );
    return () => controller.abort();
  }, [api, attempt]);

  const reload = useCallback(() => setAttempt((n) => n + 1), []);
  return { topology, reload };
}
