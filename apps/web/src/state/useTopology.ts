import { useCallback, useEffect, useState } from 'react';
import { describeError } from '../api/client.ts';
import type { Topology } from '../api/types.ts';
import { useApi } from './ApiContext.tsx';

export type Loadable<T> =
  | { status: 'loading' }
  | { status: 'error'; message: string }
  | { status: 'ready'; data: T };

/**
 * The fabric topology: fetched once, and again when the API starts drawing a re-discovered fabric
 * (`refresh`, on a stream tick naming another topology version) — the drawing on screen stays
 * until the new one arrives. `reload` starts over (after an error).
 */
export function useTopology(): { topology: Loadable<Topology>; reload: () => void; refresh: () => void } {
  const api = useApi();
  const [topology, setTopology] = useState<Loadable<Topology>>({ status: 'loading' });
  const [attempt, setAttempt] = useState({ n: 0, keep: false });

  useEffect(() => {
    const controller = new AbortController();
    if (!attempt.keep) setTopology({ status: 'loading' });
    api.getTopology(controller.signal).then(
      (data) => setTopology({ status: 'ready', data }),
      (error: unknown) => {
        if (!controller.signal.aborted) setTopology({ status: 'error', message: describeError(error) });
      },
    );
    return () => controller.abort();
  }, [api, attempt]);

  const reload = useCallback(() => setAttempt((a) => ({ n: a.n + 1, keep: false })), []);
  const refresh = useCallback(() => setAttempt((a) => ({ n: a.n + 1, keep: true })), []);
  return { topology, reload, refresh };
}
