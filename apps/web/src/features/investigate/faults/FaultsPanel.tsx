import { useEffect, useState } from 'react';
import { ErrorNote } from '../../../components/ErrorNote.tsx';
import { InputField, SelectField } from '../../../components/Field.tsx';
import { formatAge } from '../../../lib/format.ts';
import { faultSummary, faultTarget, type LinkChoice, linkLabel, undoFault } from './faults.ts';
import type { FaultsState } from './useFaults.ts';

interface FaultsPanelProps {
  /** ISLs to choose from. */
  links: readonly LinkChoice[];
  faults: FaultsState;
  /** Links the counters report down right now (from the stream). */
  downNow: readonly string[];
  /** Emulator clock now (ms), for "since"; the sample time of the latest stream message. */
  nowMs: number | null;
}

/** Inject and repair emulator faults on an ISL (a host link without ISLs); what is active, and what the counters say is down. */
export function FaultsPanel({ links, faults, downNow, nowMs }: FaultsPanelProps) {
  const [link, setLink] = useState(links[0]?.id ?? '');
  const [rate, setRate] = useState('10');
  useEffect(() => {
    if (link === '' && links[0]) setLink(links[0].id);
  }, [link, links]);
  const rateValue = Number(rate);
  const rateOk = rate.trim() !== '' && Number.isFinite(rateValue) && rateValue >= 0;
  const disabled = faults.busy || link === '';
  // A fabric without inter-switch links offers its host links (islChoices), and says so.
  const hostLinks = links.length > 0 && links.every((l) => l.kind === 'host');

  return (
    <div className="faults">
      <div className="form-grid">
        <SelectField
          label={hostLinks ? 'Host link' : 'ISL'}
          value={link}
          values={links.map((l) => l.id)}
          optionLabel={linkLabel}
          onChange={setLink}
        />
      </div>
      {hostLinks && <p className="hint">This fabric has no inter-switch links: faults go on host links.</p>}
      {links.length === 0 && <p className="hint">The fabric has no links to put a fault on.</p>}
      <div className="button-row">
        <button
          type="button"
          className="btn btn-danger"
          disabled={disabled}
          onClick={() => faults.inject({ type: 'link-down', link })}
        >
          Take link down
        </button>
        <button
          type="button"
          className="btn"
          disabled={disabled}
          onClick={() => faults.inject({ type: 'link-up', link })}
        >
          Bring link up
        </button>
        <button
          type="button"
          className="btn"
          disabled={disabled}
          onClick={() => faults.inject({ type: 'flap', link, period: 4, downFor: 1 })}
          title="Down 1 s every 4 s"
        >
          Flap
        </button>
      </div>
      <div className="picker-row">
        <InputField
          label="Symbol errors/s"
          type="text"
          inputMode="decimal"
          className="input-narrow"
          value={rate}
          onChange={setRate}
        />
        <button
          type="button"
          className="btn btn-small"
          disabled={disabled || !rateOk}
          onClick={() => faults.inject({ type: 'symbol-errors', link, rate: rateValue })}
        >
          Inject on link
        </button>
      </div>
      {faults.error && <ErrorNote message={faults.error} />}

      <ActiveFaults faults={faults} nowMs={nowMs} />
      <p className="hint">
        Links down by the counters (<code>fabscope_port_link_up</code>):{' '}
        {downNow.length === 0 ? (
          'none'
        ) : (
          <strong className="text-down">{downNow.map(linkLabel).join(', ')}</strong>
        )}
      </p>
    </div>
  );
}

/** The faults held, each with its age and the change that repairs it; all repaired at once. */
function ActiveFaults({ faults, nowMs }: Pick<FaultsPanelProps, 'faults' | 'nowMs'>) {
  return (
    <>
      <div className="faults-head">
        <h3>Active faults</h3>
        <button
          type="button"
          className="btn btn-small"
          disabled={faults.busy || !faults.faults || faults.faults.length === 0}
          onClick={faults.clearAll}
        >
          Repair all
        </button>
      </div>
      {faults.faults === null ? (
        <p className="placeholder">Loading faults…</p>
      ) : faults.faults.length === 0 ? (
        <p className="placeholder">No active faults.</p>
      ) : (
        <ul className="fault-list" aria-label="Active faults">
          {faults.faults.map((f) => {
            const undo = undoFault(f);
            return (
              <li key={f.id}>
                <span className="fault-what">{faultSummary(f)}</span>
                <span className="mono">{faultTarget(f)}</span>
                <span className="muted small">
                  {nowMs === null ? '' : `${formatAge(Math.max(0, (nowMs - f.sinceMs) / 1000))} ago`}
                </span>
                {undo && (
                  <button
                    type="button"
                    className="btn btn-small"
                    disabled={faults.busy}
                    onClick={() => faults.inject(undo)}
                    aria-label={`Repair ${faultSummary(f)} on ${faultTarget(f)}`}
                  >
                    Repair
                  </button>
                )}
              </li>
            );
          })}
        </ul>
      )}
    </>
  );
}
