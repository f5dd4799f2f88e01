import type { StaticLoad } from '@fabscope/contracts';
import { DataTable, num } from '../../../components/DataTable.tsx';
import { DirectionButton } from '../../../components/DirectionButton.tsx';
import { ErrorNote } from '../../../components/ErrorNote.tsx';
import { formatCount, formatPercent } from '../../../lib/format.ts';
import { type ApiLoad, useApiQuery } from '../../../state/useApiQuery.ts';
import { tablesText } from '../routeTables.ts';
import { comparisonText, directionLabel, formatImbalance, imbalance } from './staticLoad.ts';

const PORTS_SHOWN = 20;

// Host ports all carry one path per other host: the imbalance static routing leaves is on the ISLs.
const load: ApiLoad<StaticLoad> = (api, signal) => api.getStaticLoad(PORTS_SHOWN, 'isl', signal);

/** Static route load as `ibdiagnet -r` reports it: paths per output port, tier and direction. */
export function StaticLoadPanel({ onSelectLink }: { onSelectLink: (id: string) => void }) {
  const answer = useApiQuery(['static-load'], load, { keepPrevious: true, live: true });
  if (answer.status === 'error') return <ErrorNote message={`Static route load: ${answer.message}`} />;
  if (answer.status !== 'ready') return <p className="placeholder">Counting paths through every port…</p>;
  const data = answer.data;
  const paths = data.routed + data.unrouted + data.looping;
  return (
    <section className="static-load" aria-label="Static route load">
      <p className="hint" data-tables-source={data.tables.source}>
        Tables: {tablesText(data.tables)}. {formatCount(paths)} host-to-host paths from{' '}
        {formatCount(data.sources)} host ports
        {data.unrouted > 0 ? `, ${formatCount(data.unrouted)} end on a hole` : ''}
        {data.looping > 0 ? `, ${formatCount(data.looping)} loop` : ''}.
      </p>
      <p className="hint" role="status" aria-label="Static against measured">
        {comparisonText(data.measured, data.groups)}
      </p>
      <DataTable
        label="Static route load by tier"
        columns={[
          'Tier',
          'Leads',
          num('Ports'),
          num('Paths min'),
          num('mean'),
          num('max'),
          num('Imbalance', "Busiest port's paths over the mean: 1.00× is even"),
          num('Util now', "Mean utilization measured on the group's ports now"),
        ]}
      >
        {data.groups.map((g) => (
          <tr key={`${g.tier} ${g.direction}`}>
            <td>{g.tier}</td>
            <td>{directionLabel(g.direction)}</td>
            <td className="num">{formatCount(g.ports)}</td>
            <td className="num">{formatCount(g.min)}</td>
            <td className="num">{formatCount(Math.round(g.mean))}</td>
            <td className="num">{formatCount(g.max)}</td>
            <td className="num">{formatImbalance(imbalance(g))}</td>
            <td className="num">{formatPercent(g.meanUtilization)}</td>
          </tr>
        ))}
      </DataTable>
      <DataTable
        label="Busiest output ports by paths"
        columns={['ISL output port', 'Leads', num('Paths'), num('Util now')]}
      >
        {data.ports.map((p) => (
          <tr key={p.link}>
            <td className="mono">
              <DirectionButton id={p.link} onOpen={onSelectLink} title="Its flows and history" />
            </td>
            <td>{directionLabel(p.direction)}</td>
            <td className="num">{formatCount(p.paths)}</td>
            <td className="num">{formatPercent(p.utilization)}</td>
          </tr>
        ))}
      </DataTable>
    </section>
  );
}
