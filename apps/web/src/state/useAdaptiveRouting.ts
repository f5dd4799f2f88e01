import { useCallback, useEffect, useRef, useState } from 'react';
import { describeError } from '../api/client.ts';
import type { AdaptiveRouting } from '../api/types.ts';
import { useApi } from './ApiContext.tsx';

export interface AdaptiveRoutingState {
  /** What the server last reported; null until the first answer. */
  settings: AdaptiveRouting | null;
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
        setSettings(data);
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
          setError(null);
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
  return { settings, loading, saving, error, update, reload };
}
