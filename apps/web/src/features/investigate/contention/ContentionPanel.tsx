import type { Analysis } from '@fabscope/contracts';
import { type FormEvent, useEffect, useId, useState } from 'react';
import { DataTable, num } from '../../../components/DataTable.tsx';
import { ErrorNote } from '../../../components/ErrorNote.tsx';
import { InputField, SelectField } from '../../../components/Field.tsx';
import { formatCount, formatDirection } from '../../../lib/format.ts';
import { useRateFormat } from '../../../state/preferences.ts';
import type { Remote } from '../../../state/useApiQuery.ts';
import type { TrafficState } from '../../../state/useTraffic.ts';
import { TRAFFIC_ARG } from '../../traffic/trafficForm.ts';
import {
  type CollisionRow,
  collisionRows,
  draftOf,
  measuredByPair,
  noIslContentionText,
  PATTERN_KINDS,
  type PatternDraft,
  type PatternKind,
  pairKey,
  patternText,
  trafficFor,
} from './contention.ts';

/** Expected flow rates listed; the rest are counted. */
const FLOWS_SHOWN = 12;

interface ContentionPanelProps {
  /** The form's pattern when the URL names none (the seed pairs on the demo fabric). */
  defaultDraft: PatternDraft;
  /** The pattern last checked (kept in the URL), or null. */
  pattern: string | null;
  /** The hosts it was checked on (a host list, kept in the URL); null: every host. */
  hosts: string | null;
  onCheck: (pattern: string, hosts: string | null) => void;
  analysis: Remote<Analysis>;
  traffic: TrafficState;
}

function Stat({ label, value, hint }: { label: string; value: string; hint?: string }) {
  const id = useId();
  return (
    <div className="stat">
      <span id={id} className="stat-label">
        {label}
      </span>
      <output aria-labelledby={id} className="stat-value">
        {value}
      </output>
      {hint && <span className="stat-hint">{hint}</span>}
    </div>
  );
}

/** ISL directions carrying two or more of the pattern's flows, with the colliding pairs. */
function CollisionsTable({ collisions }: { collisions: readonly CollisionRow[] }) {
  return (
    <DataTable
      label="Shared ISL directions"
      caption="Shared ISL directions"
      columns={['ISL (from → to)', num('Flows'), 'Colliding pairs']}
    >
      {collisions.map((c) => (
        <tr key={c.link}>
          <td className="mono">{formatDirection(c.link)}</td>
          <td className="num strong">{c.flows}</td>
          <td className="wrap">{c.pairs.join(', ')}</td>
        </tr>
      ))}
    </DataTable>
  );
}

function Result({
  analysis,
  draft,
  traffic,
}: {
  analysis: Analysis;
  draft: PatternDraft;
  traffic: TrafficState;
}) {
  const rates = useRateFormat();
  const collisions = collisionRows(analysis);
  const request = trafficFor(draft, analysis);
  const shownFlows = analysis.flows.slice(0, FLOWS_SHOWN);
  const running = traffic.flows !== null && traffic.flows.length > 0;
  const measured = traffic.flows ? measuredByPair(traffic.flows) : null;
  const measuredOf = (from: string, to: string) => measured?.get(pairKey(from, to)) ?? null;
  const adaptive = analysis.adaptive ?? null;
  return (
    <>
      <div className="stats">
        <Stat label="Max link load" value={formatCount(analysis.maxLinkLoad)} hint="flows on one direction" />
        <Stat label="Max ISL load" value={formatCount(analysis.maxIslLoad)} />
        <Stat
          label="Flows"
          value={analysis.flowCount.toLocaleString('en')}
          hint={analysis.routedCount < analysis.flowCount ? `${analysis.routedCount} routed` : undefined}
        />
        <Stat label="Expected total" value={rates.gbps(analysis.aggregateGbps)} />
        {adaptive && (
          <Stat
            label="With adaptive routing"
            value={rates.gbps(adaptive.aggregateGbps)}
            hint={`max ISL load ${adaptive.maxIslLoad}`}
          />
        )}
      </div>
      {analysis.unroutable.length > 0 && (
        <ErrorNote
          message={`${analysis.unroutable.length} flow(s) have no route, e.g. ${analysis.unroutable[0]?.from} → ${analysis.unroutable[0]?.to}: ${analysis.unroutable[0]?.reason}`}
        />
      )}
      {collisions.length === 0 ? (
        <p className={analysis.maxLinkLoad > 1 ? 'hint' : 'ok-note'}>
          {noIslContentionText(analysis, rates.unit)}
        </p>
      ) : (
        <CollisionsTable collisions={collisions} />
      )}
      <DataTable
        label="Expected per-flow rates"
        caption="Expected per-flow rates (static routing, max-min fair)"
        columns={['Flow', num('Expected'), adaptive && num('With AR'), num('Measured')]}
      >
        {shownFlows.map((f) => (
          <tr key={`${f.from}->${f.to}`}>
            <td>
              {f.from} → {f.to}
            </td>
            <td className="num">{rates.gbps(f.rateGbps)}</td>
            {adaptive && (
              <td className="num">
                {f.adaptiveRateGbps === undefined ? '—' : rates.gbps(f.adaptiveRateGbps)}
              </td>
            )}
            <td className="num">{rates.rate(measuredOf(f.from, f.to))}</td>
          </tr>
        ))}
        {analysis.flows.length > FLOWS_SHOWN && (
          <tr>
            <td colSpan={adaptive ? 4 : 3} className="muted">
              … and {(analysis.flows.length - FLOWS_SHOWN).toLocaleString('en')} more flows
              {analysis.flows.length < analysis.routedCount && ' (list cut by the API)'}
              {measured &&
                ` · ${analysis.flows.filter((f) => measuredOf(f.from, f.to) !== null).length.toLocaleString('en')} of ${analysis.flows.length.toLocaleString('en')} measured`}
            </td>
          </tr>
        )}
      </DataTable>
      <div className="button-row">
        <button
          type="button"
          className="btn"
          disabled={traffic.busy || request === null}
          onClick={() => request && traffic.replace(request)}
        >
          Run this traffic
        </button>
        <span className="hint">
          {running ? 'Replaces the running flows; ' : 'Starts these flows in the emulator; '}
          compare Expected with Measured.
        </span>
      </div>
    </>
  );
}

/** "Which of my job's pairs share a link?": contention of a pattern under static routing. */
export function ContentionPanel({
  defaultDraft,
  pattern,
  hosts,
  onCheck,
  analysis,
  traffic,
}: ContentionPanelProps) {
  const [hostsDraft, setHostsDraft] = useState(hosts ?? '');
  useEffect(() => {
    setHostsDraft(hosts ?? '');
  }, [hosts]);
  const [draft, setDraft] = useState<PatternDraft>(() => draftOf(pattern, defaultDraft));
  const [problem, setProblem] = useState<string | null>(null);
  useEffect(() => {
    if (pattern) setDraft(draftOf(pattern, defaultDraft));
  }, [pattern, defaultDraft]);
  const arg = TRAFFIC_ARG[draft.kind];

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const result = patternText(draft);
    if (!result.ok) {
      setProblem(result.message);
      return;
    }
    setProblem(null);
    onCheck(result.pattern, hostsDraft.trim() === '' ? null : hostsDraft.trim());
  };
  // The result belongs to the pattern checked, which the form may have moved away from.
  const checked = draftOf(pattern, draft);

  return (
    <div className="contention">
      <form className="form-grid contention-form" onSubmit={submit}>
        <SelectField
          label="Pattern"
          value={draft.kind}
          values={PATTERN_KINDS}
          onChange={(kind) => setDraft({ kind: kind as PatternKind, arg: '' })}
        />
        {arg && (
          <InputField
            label={arg.label}
            type="text"
            value={draft.arg}
            placeholder={arg.placeholder}
            onChange={(value) => setDraft({ ...draft, arg: value })}
          />
        )}
        <InputField
          label="Hosts"
          type="text"
          value={hostsDraft}
          placeholder="all hosts, or a host list: node[01-16]"
          onChange={setHostsDraft}
        />
        <span />
        <div className="button-row">
          <button type="submit" className="btn btn-primary btn-small">
            Check contention
          </button>
          {analysis.status === 'ready' && (
            <span className="hint">
              {analysis.data.engine} tables · <code>{analysis.data.pattern}</code>
            </span>
          )}
        </div>
      </form>
      {problem && <ErrorNote message={problem} />}
      {analysis.status === 'idle' && (
        <p className="placeholder">
          Check which flows of a job would share an ISL under static routing, and the rates to expect.
        </p>
      )}
      {analysis.status === 'loading' && <p className="placeholder">Analysing…</p>}
      {analysis.status === 'error' && <ErrorNote message={`Contention: ${analysis.message}`} />}
      {analysis.status === 'ready' && <Result analysis={analysis.data} draft={checked} traffic={traffic} />}
      {traffic.error && <ErrorNote message={traffic.error} />}
    </div>
  );
}
