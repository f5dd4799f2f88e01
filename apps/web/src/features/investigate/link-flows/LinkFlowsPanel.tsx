import type { LinkFlows } from '@fabscope/contracts';
import { useMemo } from 'react';
import { DataTable, num } from '../../../components/DataTable.tsx';
import { ErrorNote } from '../../../components/ErrorNote.tsx';
import { formatDirection, formatPercent } from '../../../lib/format.ts';
import type { DirectionLoad } from '../../../lib/route.ts';
import { useRateFormat } from '../../../state/preferences.ts';
import { type ApiLoad, useApiQuery } from '../../../state/useApiQuery.ts';

/** Flows listed; the rest are counted. */
const FLOWS_SHOWN = 20;

interface LinkFlowsPanelProps {
  link: string | null;
  /** Its live load from the stream, or null when unknown. */
  sample: DirectionLoad | null;
  onSelectJob: (id: string) => void;
  onOpenHistory: (id: string) => void;
  /** Opens the sending port's page (`node/port`). */
  onOpenPort?: (port: string) => void;
  onClose: () => void;
}

/** Why a link is hot: the flows crossing the clicked direction, their jobs, and its history. */
export function LinkFlowsPanel({
  link,
  sample,
  onSelectJob,
  onOpenHistory,
  onOpenPort,
  onClose,
}: LinkFlowsPanelProps) {
  const rates = useRateFormat();
  const load = useMemo(
    (): ApiLoad<LinkFlows> | null => (link === null ? null : (api, signal) => api.getLinkFlows(link, signal)),
    [link],
  );
  const answer = useApiQuery<LinkFlows>(['link-flows', link], load, { keepPrevious: true, live: true });
  if (link === null) {
    return (
      <p className="placeholder">
        Click a link in the fabric drawing or a heatmap cell to see the flows crossing it and their jobs.
      </p>
    );
  }
  const data = answer.status === 'ready' && answer.data.id === link ? answer.data : null;
  return (
    <section className="link-flows" aria-label="Link flows">
      <div className="button-row">
        <h3 className="mono">{formatDirection(link)}</h3>
        <button type="button" className="btn btn-small" onClick={() => onOpenHistory(link)}>
          History
        </button>
        {onOpenPort && link.includes('->') && (
          <button
            type="button"
            className="btn btn-small"
            onClick={() => onOpenPort(link.slice(0, link.indexOf('->')))}
          >
            Port {link.slice(0, link.indexOf('->'))}
          </button>
        )}
        <button type="button" className="btn btn-small" onClick={onClose}>
          Close
        </button>
      </div>
      {sample && (
        <p className="hint">
          {sample.kind} · util {formatPercent(sample.utilization)} · {rates.rate(sample.bytesPerSecond)} ·
          wait {formatPercent(sample.transmitWaitFraction)}
        </p>
      )}
      {answer.status === 'error' && <ErrorNote message={`Flows: ${answer.message}`} />}
      {data === null && answer.status !== 'error' && <p className="placeholder">Finding the flows…</p>}
      {data !== null && data.flows.length === 0 && (
        <p className="placeholder">No flow crosses this link now.</p>
      )}
      {data !== null && data.flows.length > 0 && (
        <>
          <h4>Jobs affected</h4>
          <ul className="job-list" aria-label="Jobs on this link">
            {data.jobs.map((j) => (
              <li key={j.job ?? '(none)'}>
                {j.job === null ? (
                  <span className="muted">(no job)</span>
                ) : (
                  <button
                    type="button"
                    className="link-button strong"
                    onClick={() => onSelectJob(j.job as string)}
                  >
                    {j.job}
                  </button>
                )}{' '}
                <span className="muted">
                  · {j.flows} {j.flows === 1 ? 'flow' : 'flows'}
                  {j.bytesPerSecond !== null && ` · ${rates.rate(j.bytesPerSecond)}`}
                </span>
              </li>
            ))}
          </ul>
          <DataTable
            label="Flows crossing the link"
            caption={
              <>
                {data.flows.length.toLocaleString('en')} {data.flows.length === 1 ? 'flow' : 'flows'} crossing
                it
                {data.estimated && ' (estimated: running jobs’ node pairs on their static routes)'}
              </>
            }
            columns={['Flow', 'Job', num('Rate')]}
          >
            {data.flows.slice(0, FLOWS_SHOWN).map((f, i) => (
              <tr key={f.id ?? `${f.from}>${f.to}>${i}`}>
                <td>
                  {f.from} → {f.to}
                </td>
                <td>{f.job ?? '—'}</td>
                <td className="num">{f.bytesPerSecond === null ? 'est.' : rates.rate(f.bytesPerSecond)}</td>
              </tr>
            ))}
            {data.flows.length > FLOWS_SHOWN && (
              <tr>
                <td colSpan={3} className="muted">
                  … and {(data.flows.length - FLOWS_SHOWN).toLocaleString('en')} more
                </td>
              </tr>
            )}
          </DataTable>
        </>
      )}
    </section>
  );
}
