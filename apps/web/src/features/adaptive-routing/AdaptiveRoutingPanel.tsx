import type { AdaptiveRouting } from '@fabscope/contracts';
import { type ComponentProps, memo, useId } from 'react';
import { ErrorNote } from '../../components/ErrorNote.tsx';
import { SelectField } from '../../components/Field.tsx';
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
  const lostId = useId();
  const reasonId = useId();
  const s = ar.settings;

  if (!s && ar.unavailable !== null) {
    return (
      <div className="ar-controls">
        <div className="ar-switch-row">
          <ArSwitch on={false} state="unavailable" aria-describedby={reasonId} disabled />
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
        <ArSwitch
          on={s.enabled}
          state={s.enabled ? 'ON' : 'OFF'}
          className={`switch ${s.enabled ? 'switch-on' : ''}`}
          disabled={disabled}
          onClick={() => ar.update({ enabled: !s.enabled })}
        />
        {ar.saving && <span className="muted small">applying…</span>}
      </div>
      <div className="form-grid">
        <SelectField
          label="Threshold"
          value={s.threshold}
          disabled={disabled}
          onChange={(v) => ar.update({ threshold: Number(v) })}
          values={THRESHOLD_VALUES}
          optionLabel={thresholdLabel}
        />
        <SelectField
          label="Algorithm"
          value={s.algorithm}
          disabled={disabled}
          onChange={(v) => ar.update({ algorithm: Number(v) as AdaptiveRouting['algorithm'] })}
          values={ALGORITHMS.map((a) => a.value)}
          optionLabel={algorithmLabel}
        />
        <SelectField
          label="AR frequency"
          value={s.arFrequency}
          disabled={disabled}
          onChange={(v) => ar.update({ arFrequency: Number(v) })}
          values={AR_FREQUENCY_VALUES}
          optionLabel={arFrequencyLabel}
        />
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

/** The on/off switch, its state word shown beside the track. */
function ArSwitch({ on, state, ...button }: ComponentProps<'button'> & { on: boolean; state: string }) {
  return (
    <button
      type="button"
      role="switch"
      aria-checked={on}
      aria-label="Adaptive routing"
      className="switch"
      {...button}
    >
      <span className="switch-track" aria-hidden="true">
        <span className="switch-thumb" />
      </span>
      <span className="switch-text" aria-hidden="true">
        Adaptive routing <strong>{state}</strong>
      </span>
    </button>
  );
}
