import type { AdaptiveRouting, AdaptiveRoutingChange, AdaptiveRoutingStatus } from '@fabscope/contracts';
import { useCallback, useMemo } from 'react';
import { useApiChange } from '../../state/useApiChange.ts';
import { type ApiLoad, useApiQuery, WATCH_ANSWERED } from '../../state/useApiQuery.ts';

export interface AdaptiveRoutingState {
  /** What the server last reported; null until the first answer. */
  settings: AdaptiveRouting | null;
  /** Why the fabric has no adaptive routing to change here (the API's reason); null when it has. */
  unavailable: string | null;
  loading: boolean;
  saving: boolean;
  error: string | null;
  update: (patch: Partial<AdaptiveRouting>) => void;
  reload: () => void;
}

const AR_KEY = ['adaptive-routing'] as const;
const loadAdaptiveRouting: ApiLoad<AdaptiveRoutingStatus | AdaptiveRoutingChange> = (api, signal) =>
  api.getAdaptiveRouting(signal);

/** Adaptive-routing parameters: shown as the server reports them, changed with PUT. */
export function useAdaptiveRouting(): AdaptiveRoutingState {
  // The answer: GET's status, then each PUT's (the whole new state, and how applying it went).
  const answer = useApiQuery<AdaptiveRoutingStatus | AdaptiveRoutingChange>(AR_KEY, loadAdaptiveRouting, {
    watch: WATCH_ANSWERED,
  });
  const { change, busy, failure } = useApiChange<AdaptiveRoutingStatus | AdaptiveRoutingChange>(
    AR_KEY,
    answer.answeredAtMs,
  );
  const update = useCallback(
    (patch: Partial<AdaptiveRouting>) => change((api, signal) => api.putAdaptiveRouting(patch, signal)),
    [change],
  );
  const data = answer.status === 'ready' ? answer.data : null;
  // `available: false` with the reason where the fabric has none.
  const settings = data?.available ? data : null;
  const unavailable = data && !data.available ? data.reason : null;
  const error =
    failure?.message ??
    answer.failure?.message ??
    (answer.status === 'error' ? answer.message : null) ??
    (data?.available ? applyFailure(data as AdaptiveRoutingChange) : null);
  const loading = answer.status === 'loading';
  const reload = answer.reload;
  // One object while nothing changed: the panel given it re-renders only on a change.
  return useMemo(
    () => ({ settings, unavailable, loading, saving: busy, error, update, reload }),
    [settings, unavailable, loading, busy, error, update, reload],
  );
}

/** "Saved to …/opafm.xml, but reload-fm failed (exit 3): …" when the site's apply command failed. */
function applyFailure(answer: AdaptiveRoutingChange): string | null {
  const change = answer.change;
  const apply = change?.apply;
  if (!change || !apply || apply.ok) return null;
  const how =
    apply.error ??
    (apply.timedOut ? 'timed out' : apply.signal ? `killed by ${apply.signal}` : `exit ${apply.exitCode}`);
  const said = apply.stderr.trim().split('\n').at(-1);
  return `Saved to ${change.file}, but ${apply.command.join(' ')} failed (${how})${said ? `: ${said}` : ''}`;
}
