import { memo, useId } from 'react';
import type { Route } from '../../../api/types.ts';
import { DataTable, num } from '../../../components/DataTable.tsx';
import { ErrorNote } from '../../../components/ErrorNote.tsx';
import { ecmpSummary, ecmpVia } from '../../../lib/ecmp.ts';
import { formatPercentValue } from '../../../lib/format.ts';
import { hopRows, latencyText, railText, routeHasLids, staticDetour } from '../../../lib/route.ts';
import type { Remote } from '../../../state/useApiQuery.ts';
import { engineText, tablesText } from '../routeTables.ts';
import { NodePicker } from './NodePicker.tsx';

interface RoutePanelProps {
  /** Hosts (and routers) of the fabric. */
  endpoints: readonly string[];
  from: string | null;
  to: string | null;
  onFromChange: (name: string | null) => void;
  onToChange: (name: string | null) => void;
  route: Remote<Route>;
  onRetry: () => void;
}

/** The route between two hosts as traffic takes it, laid out as `opareport -o route`, with live load. */
export const RoutePanel = memo(function RoutePanel({
  endpoints,
  from,
  to,
  onFromChange,
  onToChange,
  route,
  onRetry,
}: RoutePanelProps) {
  const latencyId = useId();
  const rows = route.status === 'ready' ? hopRows(route.data) : [];
  const swap = () => {
    onFromChange(to);
    onToChange(from);
  };
  return (
    <div className="route-panel">
      <div className="route-pickers">
        <NodePicker label="From" value={from} options={endpoints} onChange={onFromChange} />
        <NodePicker label="To" value={to} options={endpoints} onChange={onToChange} />
        <button
          type="button"
          className="btn btn-small"
          onClick={swap}
          disabled={!from && !to}
          title="Swap from and to"
          aria-label="Swap from and to"
        >
          ⇄
        </button>
        <button
          type="button"
          className="btn btn-small"
          onClick={() => {
            onFromChange(null);
            onToChange(null);
          }}
          disabled={!from && !to}
        >
          Clear
        </button>
      </div>
      {route.status === 'idle' && (
        <p className="placeholder">Pick two hosts to see the route their traffic takes.</p>
      )}
      {route.status === 'loading' && <p className="placeholder">Looking up the route…</p>}
      {route.status === 'error' && <ErrorNote message={`Route: ${route.message}`} onRetry={onRetry} />}
      {route.status === 'ready' && (
        <>
          <dl className="facts">
            <div>
              <dt id={latencyId}>Latency</dt>
              <dd>
                <output aria-labelledby={latencyId}>{latencyText(route.data) ?? '—'}</output>
              </dd>
            </div>
            <div>
              <dt>Links</dt>
              <dd>
                {route.data.links.length}
                {route.data.bottleneckGbps !== undefined && ` · slowest link ${route.data.bottleneckGbps}g`}
              </dd>
            </div>
            {railText(route.data) && (
              <div>
                <dt>Rail</dt>
                <dd className="mono" title={route.data.rail?.rails.join('\n')}>
                  {railText(route.data)}
                </dd>
              </div>
            )}
            {route.data.tables && (
              <div>
                <dt>Tables</dt>
                <dd data-tables-source={route.data.tables.source}>{tablesText(route.data.tables)}</dd>
              </div>
            )}
            {/* Ethernet has no LIDs: shown only where both ends have them. */}
            {routeHasLids(route.data) && (
              <div>
                <dt>LIDs</dt>
                <dd className="mono">
                  {route.data.slid ?? '—'} → {route.data.dlid ?? '—'}
                  {engineText(route.data.engine, route.data.tables) && (
                    <span className="muted"> · {engineText(route.data.engine, route.data.tables)}</span>
                  )}
                </dd>
              </div>
            )}
          </dl>
          <DataTable
            label="Route hops"
            columns={[
              num('#'),
              'Node',
              'Type',
              num('In'),
              num('Out'),
              num('Rate'),
              num('Util %'),
              num('Wait %'),
              rows.some((h) => h.guid !== '') && 'GUID',
            ]}
          >
            {rows.map((h) => (
              <tr key={h.index}>
                <td className="num muted">{h.index}</td>
                <td className="strong">{h.node}</td>
                <td className="muted">{h.type}</td>
                <td className="num">{h.inPort}</td>
                <td className="num">{h.outPort}</td>
                <td className="num">{h.rate}</td>
                <td className="num">{h.rate === '' ? '' : formatPercentValue(h.utilization)}</td>
                <td className="num">{h.rate === '' ? '' : formatPercentValue(h.waitFraction)}</td>
                {rows.some((r) => r.guid !== '') && <td className="mono muted guid">{h.guid}</td>}
              </tr>
            ))}
          </DataTable>
          {route.data.ecmp && (
            <DataTable
              label="Equal-cost paths"
              caption={ecmpSummary(route.data.ecmp)}
              columns={['Via', num('Util %'), num('Wait %'), 'Hops shown']}
            >
              {route.data.ecmp.members.map((m) => (
                <tr key={m.links.join(' ')} data-taken={m.taken ? 'true' : undefined}>
                  <td className="mono" title={m.links.join('\n')}>
                    {ecmpVia(m)}
                  </td>
                  <td className="num">{formatPercentValue(m.utilization)}</td>
                  <td className="num">{formatPercentValue(m.transmitWaitFraction)}</td>
                  <td>{m.taken ? 'yes' : ''}</td>
                </tr>
              ))}
            </DataTable>
          )}
          <p className="hint" data-route-source={route.data.source ?? 'tables'}>
            {route.data.source === 'flow'
              ? `The path flow ${route.data.flowId ?? ''} takes now, highlighted in the fabric view.`
              : 'From the forwarding tables (static routing), highlighted in the fabric view.'}{' '}
            {staticDetour(route.data) !== null &&
              `Adaptive routing moved it off the static route ${staticDetour(route.data)}. `}
            Latency: 400 ns per endpoint, 110 ns per switch, 5 ns/m of cable.
          </p>
        </>
      )}
    </div>
  );
});
