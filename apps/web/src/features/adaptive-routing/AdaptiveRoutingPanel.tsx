import { memo, useId } from 'react';
import type { ArAlgorithm } from '../../api/types.ts';
import { ErrorNote } from '../../components/ErrorNote.tsx';
import { Options } from '../../components/Options.tsx';
import {
  ALGORITHMS,
  AR_FREQUENCY_VALUES,
  algorithmLabel,
  arFrequencyLabel,
  THRESHOLD_VALUES,
  thresholdLabel,
} from './adaptiveRouting.ts';
import type { AdaptiveRoutingState } from './useAdaptiveRouting.ts';

/** Adaptive-routing controls showing the server's state; disabled, with why, where there is none. */
export const AdaptiveRoutingPanel = memo(function AdaptiveRoutingPanel({ ar }: { ar: AdaptiveRoutingState }) {
  const thresholdId = useId();
  const algorithmId = useId();
  const frequencyId = useId();
  const lostId = useId();
  const reasonId = useId();
  const s = ar.settings;

  if (!s && ar.unavailable !== null) {
    return (
      <div className="ar-controls">
        <div className="ar-switch-row">
          <button
            type="button"
            role="switch"
            aria-checked={false}
            aria-label="Adaptive routing"
            aria-describedby={reasonId}
            className="switch"
            disabled
          >
            <span className="switch-track" aria-hidden="true">
              <span className="switch-thumb" />
            </span>
            <span className="switch-text" aria-hidden="true">
              Adaptive routing <strong>unavailable</strong>
            </span>
          </button>
        </div>
        <p id={reasonId} className="hint">
          {ar.unavailable}
        </p>
      </div>
    );
  }
  if (!s) {
    if (ar.loading) return <p className="placeholder">Loading adaptive-routing settings…</p>;
    return <ErrorNote message={`Adaptive routing: ${ar.error ?? 'no answer'}`} onRetry={ar.reload} />;
  }
  const disabled = ar.saving;

  return (
    <div className="ar-controls" aria-busy={ar.saving}>
      <div className="ar-switch-row">
        <button
          type="button"
          role="switch"
          aria-checked={s.enabled}
          aria-label="Adaptive routing"
          className={`switch ${s.enabled ? 'switch-on' : ''}`}
          disabled={disabled}
          onClick={() => ar.update({ enabled: !s.enabled })}
        >
          <span className="switch-track" aria-hidden="true">
            <span className="switch-thumb" />
          </span>
          <span className="switch-text" aria-hidden="true">
            Adaptive routing <strong>{s.enabled ? 'ON' : 'OFF'}</strong>
          </span>
        </button>
        {ar.saving && <span className="muted small">applying…</span>}
      </div>
      <div className="form-grid">
        <label htmlFor={thresholdId}>Threshold</label>
        <select
          id={thresholdId}
          value={s.threshold}
          disabled={disabled}
          onChange={(e) => ar.update({ threshold: Number(e.target.value) })}
        >
          <Options values={THRESHOLD_VALUES} label={thresholdLabel} />
        </select>
        <label htmlFor={algorithmId}>Algorithm</label>
        <select
          id={algorithmId}
          value={s.algorithm}
          disabled={disabled}
          onChange={(e) => ar.update({ algorithm: Number(e.target.value) as ArAlgorithm })}
        >
          <Options values={ALGORITHMS.map((a) => a.value)} label={algorithmLabel} />
        </select>
        <label htmlFor={frequencyId}>AR frequency</label>
        <select
          id={frequencyId}
          value={s.arFrequency}
          disabled={disabled}
          onChange={(e) => ar.update({ arFrequency: Number(e.target.value) })}
        >
          <Options values={AR_FREQUENCY_VALUES} label={arFrequencyLabel} />
        </select>
        <label htmlFor={lostId}>Lost route only</label>
        <input
          id={lostId}
          type="checkbox"
          checked={s.lostRouteOnly}
          disabled={disabled}
          onChange={(e) => ar.update({ lostRouteOnly: e.target.checked })}
        />
      </div>
      <p className="hint">
        Threshold: ISL load tolerated before AR moves traffic to an equal-cost port. AR frequency: at least 2
        <sup>n</sup> × 64 ms between adjustments.
      </p>
      {ar.error && <ErrorNote message={ar.error} />}
    </div>
  );
});
