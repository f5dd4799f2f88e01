import { pathNodes, SEED_PAIRS } from '../lib/flows.ts';

import { groupFlowsByJob, jobRunning, SEED_JOB } from '../lib/jobs.ts';
import { useRateFormat } from '../state/preferences.ts';
import type { TrafficState } from '../state/useTraffic.ts';
import { ErrorNote } from './ErrorNote.tsx';

/** Jobs listed; on a big fabric the rest are counted, not drawn. */
export const JOBS_SHOWN = 12;
/** Flows listed under each job; 16 identical iperf streams read as one line and a count. */
export const FLOWS_PER_JOB = 3;

interface TrafficPanelProps {
  traffic: TrafficState;
  /** Whether the fabric has the seed-002 hosts (nodeA…nodeD); false hides that button. */
  seedAvailable?: boolean;
  /** Opens a job in the Jobs tab. */
  onSelectJob?: (id: string) => void;
}

/** Start the seed-002 traffic as job `seed` (once), stop all traffic, and the flows by job. */
export function TrafficPanel({ traffic, seedAvailable = true, onSelectJob }: TrafficPanelProps) {
  const rates = useRateFormat();
  const { flows } = traffic;
  const groups = flows ? groupFlowsByJob(flows, traffic.jobTotals) : [];
  const hidden = groups.slice(JOBS_SHOWN);
  const seedRunning = jobRunning(flows, SEED_JOB);
  if (traffic.unavailable !== null) {
    // A live fabric: its traffic is its jobs', not started from here.
    return (
      <div className="traffic">
        <p className="hint" role="note" aria-label="Traffic control" title={traffic.unavailable}>
          Traffic is started from here on the emulated fabric only: this API reads a live fabric (no emulator
          attached). Its traffic is its jobs' — see the Jobs tab.
        </p>
      </div>
    );
  }
  return (
    <div className="traffic">
      <div className="button-row">
        {seedAvailable && (
          <button
            type="button"
            className="btn btn-primary"
            // Pressing again while the seed job runs would add two more flows: it starts once.
            disabled={traffic.busy || seedRunning !== false}
            title={seedRunning ? 'The seed pairs run as job "seed"' : undefined}
            onClick={() => traffic.start({ pattern: 'pairs', pairs: SEED_PAIRS, job: SEED_JOB })}
          >
            Start seed pairs (A→C, B→D)
          </button>
        )}
        <button type="button" className="btn" disabled={traffic.busy} onClick={traffic.stop}>
          Stop traffic
        </button>
      </div>
      {traffic.error && <ErrorNote message={traffic.error} />}
      {flows === null ? (
        <p className="placeholder">Loading flows…</p>
      ) : flows.length === 0 ? (
        <p className="placeholder">No active flows.</p>
      ) : (
        <ul className="flow-groups" aria-label="Active flows by job">
          {groups.slice(0, JOBS_SHOWN).map((g) => (
            <li key={g.job} className="flow-group" data-job={g.job} data-flow-count={g.count}>
              <div className="flow-group-head">
                {onSelectJob ? (
                  <button type="button" className="link-button strong" onClick={() => onSelectJob(g.job)}>
                    {g.job}
                  </button>
                ) : (
                  <span className="strong">{g.job}</span>
                )}
                <span className="muted">
                  {' '}
                  · {g.count.toLocaleString('en')} {g.count === 1 ? 'flow' : 'flows'}
                  {g.pairs !== g.count &&
                    ` (${g.pairs.toLocaleString('en')} ${g.pairs === 1 ? 'pair' : 'pairs'})`}
                </span>
                <span className="flow-rate">{rates.rate(g.bytesPerSecond)}</span>
              </div>
              <ul className="flows" aria-label={`Flows of job ${g.job}`}>
                {g.flows.slice(0, FLOWS_PER_JOB).map((f) => (
                  <li key={f.id} data-flow-id={f.id} data-bytes-per-second={f.bytesPerSecond}>
                    <span className="flow-ends">
                      {f.from} → {f.to}
                    </span>
                    <span className="flow-rate">{rates.rate(f.bytesPerSecond)}</span>
                    <span className="flow-path mono muted">{pathNodes(f.path).join(' › ')}</span>
                  </li>
                ))}
                {g.count > FLOWS_PER_JOB && (
                  <li className="muted">… and {(g.count - FLOWS_PER_JOB).toLocaleString('en')} more</li>
                )}
              </ul>
            </li>
          ))}
          {hidden.length > 0 && (
            <li className="muted">
              … and {hidden.length.toLocaleString('en')} more jobs (
              {rates.rate(hidden.reduce((sum, g) => sum + g.bytesPerSecond, 0))} together)
            </li>
          )}
        </ul>
      )}
    </div>
  );
}
