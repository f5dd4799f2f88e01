import type { Topology } from '@fabscope/contracts';
import { useApiQuery } from './useApiQuery.ts';

export type Loadable<T> =
  | { status: 'loading' }
  | { status: 'error'; message: string }
  | { status: 'ready'; data: T };

const TOPOLOGY_KEY = ['topology'] as const;

/** The topology, asked again (`refresh`) when a message names another version; `reload` after an error. */
export function useTopology(): { topology: Loadable<Topology>; reload: () => void; refresh: () => void } {
  const answer = useApiQuery(TOPOLOGY_KEY, (api, signal) => api.getTopology(signal));
  const topology: Loadable<Topology> =
    answer.status === 'ready' || answer.status === 'error' ? answer : { status: 'loading' };
  return { topology, reload: answer.reset, refresh: answer.reload };
}
