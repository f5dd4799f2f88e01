import { useCallback, useEffect, useRef, useState } from 'react';
import { describeError } from '../api/client.ts';
import type { AdaptiveRouting, AdaptiveRoutingChange } from '../api/types.ts';
import { useApi } from './ApiContext.tsx';

export interface AdaptiveRoutingState {
  /** What the server last reported; null until the first answer. */
  settings: AdaptiveRouting | null;
  /** Why the fabric has no adaptive routing to change here (the API's reason); null when it has. */
  unavailable: string | null;
  loading: boolean;
  /** A change is in flight. */
  saving: boolean;
  error: string | null;
  update: (patch: Partial<AdaptiveRouting>) => void;
  reload: () => void;
}

/** Adaptive-routing parameters: shown as the server reports them, changed with PUT. */
export function useAdaptiveRouting(): AdaptiveRoutingState {
  const api = useApi();
  const [settings, setSettings] = useState<AdaptiveRouting | null>(null);
  const [unavailable, setUnavailable] = useState<string | null>(null);
  const [loading, setLoading] = useState(true);
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [attempt, setAttempt] = useState(0);
  const pending = useRef<AbortController | null>(null);

  useEffect(() => {
    void attempt;
    const controller = new AbortController();
    setLoading(true);
    api.getAdaptiveRouting(controller.signal).then(
      (data) => {
        setSettings(data.available ? data : null);
        setUnavailable(data.available ? null : data.reason);
        setError(null);
        setLoading(false);
      },
      (e: unknown) => {
        if (controller.signal.aborted) return;
        setError(describeError(e));
        setLoading(false);
      },
    );
    return () => controller.abort();
  }, [api, attempt]);

  useEffect(() => () => pending.current?.abort(), []);

  const update = useCallback(
    (patch: Partial<AdaptiveRouting>) => {
      pending.current?.abort();
      const controller = new AbortController();
      pending.current = controller;
      setSaving(true);
      api.putAdaptiveRouting(patch, controller.signal).then(
        (data) => {
          setSettings(data);
          setError(applyFailure(data));
          setSaving(false);
        },
        (e: unknown) => {
          if (controller.signal.aborted) return;
          setError(describeError(e));
          setSaving(false);
        },
      );
    },
    [api],
  );

  const reload = useCallback(() => setAttempt((n) => n + 1), []);
  return { settings, unavailable, loading, saving, error, update, reload };
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
