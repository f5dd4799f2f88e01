import { type FormEvent, memo, useState } from 'react';
import { ErrorNote } from '../../components/ErrorNote.tsx';
import { InputField, SelectField } from '../../components/Field.tsx';
import { pathNodes, SEED_PAIRS } from '../../lib/flows.ts';
import { formatCount } from '../../lib/format.ts';
import { groupFlowsByJob, jobRunning, SEED_JOB } from '../../lib/jobs.ts';
import { useRateFormat } from '../../state/preferences.ts';
import type { TrafficState } from '../../state/useTraffic.ts';
import {
  TAKES_HOSTS,
  TRAFFIC_ARG,
  TRAFFIC_KINDS,
  type TrafficDraft,
  type TrafficKind,
  trafficRequestOf,
} from './trafficForm.ts';

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
export const TrafficPanel = memo(function TrafficPanel({
  traffic,
  seedAvailable = true,
  onSelectJob,
}: TrafficPanelProps) {
  const rates = useRateFormat();
  const { flows } = traffic;
  const groups = flows ? groupFlowsByJob(flows, traffic.jobTotals) : [];
  const hidden = groups.slice(JOBS_SHOWN);
  const seedRunning = jobRunning(flows, SEED_JOB, traffic.jobTotals);
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
      <StartTrafficForm busy={traffic.busy} onStart={traffic.start} />
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
                  · {formatCount(g.count)} {g.count === 1 ? 'flow' : 'flows'}
                  {g.pairs !== g.count && ` (${formatCount(g.pairs)} ${g.pairs === 1 ? 'pair' : 'pairs'})`}
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
                  <li className="muted">… and {formatCount(g.count - FLOWS_PER_JOB)} more</li>
                )}
              </ul>
            </li>
          ))}
          {hidden.length > 0 && (
            <li className="muted">
              … and {formatCount(hidden.length)} more jobs (
              {rates.rate(hidden.reduce((sum, g) => sum + g.bytesPerSecond, 0))} together)
            </li>
          )}
        </ul>
      )}
    </div>
  );
});

/** Any pattern the API offers, started for the hosts chosen (trafficForm.ts builds the request). */
function StartTrafficForm({ busy, onStart }: { busy: boolean; onStart: TrafficState['start'] }) {
  const [draft, setDraft] = useState<TrafficDraft>({ kind: 'permutation', arg: '', streams: '', hosts: '' });
  const [problem, setProblem] = useState<string | null>(null);
  const arg = TRAFFIC_ARG[draft.kind];
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const result = trafficRequestOf(draft);
    if (!result.ok) return setProblem(result.message);
    setProblem(null);
    onStart(result.request);
  };
  return (
    <form className="form-grid traffic-form" aria-label="Start traffic" onSubmit={submit}>
      <SelectField
        label="Pattern"
        value={draft.kind}
        values={TRAFFIC_KINDS}
        onChange={(kind) => setDraft({ ...draft, kind: kind as TrafficKind, arg: '' })}
      />
      {arg && (
        <InputField
          label={arg.label}
          type="text"
          value={draft.arg}
          placeholder={arg.optional ? `${arg.placeholder} (optional)` : arg.placeholder}
          onChange={(value) => setDraft({ ...draft, arg: value })}
        />
      )}
      {draft.kind === 'iperf' && (
        <InputField
          label="Streams"
          type="number"
          min={1}
          max={1024}
          value={draft.streams}
          placeholder="1"
          onChange={(streams) => setDraft({ ...draft, streams })}
        />
      )}
      {TAKES_HOSTS.has(draft.kind) && (
        <InputField
          label="Hosts"
          type="text"
          value={draft.hosts}
          placeholder="all hosts, or names: node01,node02"
          onChange={(hosts) => setDraft({ ...draft, hosts })}
        />
      )}
      <span />
      <div className="button-row">
        <button type="submit" className="btn btn-small" disabled={busy}>
          Start
        </button>
      </div>
      {problem && (
        <p className="error-note form-problem" role="alert">
          {problem}
        </p>
      )}
    </form>
  );
}
