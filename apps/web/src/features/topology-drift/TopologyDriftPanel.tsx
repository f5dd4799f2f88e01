import type { Drift, TopologyStatus } from '@fabscope/contracts';
import { memo } from 'react';
import { ErrorNote } from '../../components/ErrorNote.tsx';
import { Panel } from '../../components/Panel.tsx';
import { type ApiLoad, useApiQuery } from '../../state/useApiQuery.ts';
import { cableText, driftKindLabel, driftSummary, flapText, showsTopologyPanel, sinceText } from './drift.ts';

/** Most findings listed; the rest are counted. */
const DRIFT_LIMIT = 50;

const loadStatus: ApiLoad<TopologyStatus> = (api, signal) => api.getTopologyStatus(signal);
const loadDrift: ApiLoad<Drift> = (api, signal) => api.getDrift(DRIFT_LIMIT, signal);

/** Rediscovery changes and drift from the intended design (FABSCOPE_EXPECTED_TOPOLOGY). */
export const TopologyDriftPanel = memo(function TopologyDriftPanel() {
  // Re-asked only where it can change: a re-discovered fabric, or drift configured.
  const status = useApiQuery(['topology-status'], loadStatus, {
    keepPrevious: true,
    live: { while: (s) => s.live || s.drift.configured },
  });
  const s = status.status === 'ready' ? status.data : null;
  const drift = useApiQuery(['topology-drift'], s?.drift.configured ? loadDrift : null, {
    keepPrevious: true,
    live: true,
  });
  if (!showsTopologyPanel(s) || !s) return null;
  return (
    <Panel title="Topology" className="area-drift">
      {s.changed && (
        <p className="topology-changed" role="status">
          Topology changed since loaded: {s.summary}. New and moved cables are drawn; cables no longer found
          stay drawn, down.
        </p>
      )}
      {s.drift.configured && drift.status === 'error' && <ErrorNote message={`Drift: ${drift.message}`} />}
      {s.drift.configured && drift.status === 'loading' && (
        <p className="placeholder">Comparing with the design…</p>
      )}
      {s.drift.configured && drift.status === 'ready' && (
        <div className="drift">
          <p className="hint">
            {driftSummary(drift.data)}
            {drift.data.expected ? ` Design: ${drift.data.expected.file}.` : ''}
          </p>
          {drift.data.findings.length > 0 && (
            <table className="drift-table">
              <caption className="visually-hidden">Drift from the intended design</caption>
              <thead>
                <tr>
                  <th scope="col">Finding</th>
                  <th scope="col">Where</th>
                  <th scope="col">Designed</th>
                  <th scope="col">Found</th>
                  <th scope="col">Since (UTC)</th>
                </tr>
              </thead>
              <tbody>
                {drift.data.findings.map((f) => (
                  <tr
                    key={`${f.kind} ${f.subject} ${cableText(f.expected)} ${cableText(f.actual)}`}
                    title={f.detail}
                  >
                    <td>
                      {driftKindLabel(f.kind)}
                      {f.flapping ? ` (${flapText(f)})` : ''}
                    </td>
                    <td>{f.subject}</td>
                    <td>{cableText(f.expected)}</td>
                    <td>{cableText(f.actual)}</td>
                    <td>
                      <time dateTime={f.since}>{sinceText(f.since, Date.now())}</time>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </div>
      )}
    </Panel>
  );
});
