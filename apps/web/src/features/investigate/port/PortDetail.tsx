import type { LinkDirectionState } from '@fabscope/contracts';
import { DataTable, num } from '../../../components/DataTable.tsx';
import { fabricTerms } from '../../../lib/fabricTerms.ts';
import { formatClock, formatDirection, formatPercent, formatPerSecond } from '../../../lib/format.ts';
import { CATEGORY_LABELS } from '../../../lib/linkHealth.ts';
import { useRateFormat } from '../../../state/preferences.ts';
import { opticRows } from './optics.ts';
import {
  categoriesOf,
  type FigureRow,
  figureRows,
  formatTotal,
  notReported,
  type PortEntry,
  speedWidthText,
  stateTexts,
} from './portFigures.ts';

/** "—" with why it is unknown, visible to everyone in the footnote and to screen readers in place. */
function Unknown({ reason }: { reason: string }) {
  return (
    <span className="muted" title={reason}>
      —<span className="visually-hidden"> ({reason})</span>
    </span>
  );
}

function rateText(row: FigureRow, rate: (bytesPerSecond: number | null) => string): string {
  if (row.kind === 'bytes') return rate(row.rate);
  if (row.kind === 'gauge') return String(row.rate);
  return `${formatPerSecond(row.rate)}/s`;
}

/** One port's page: what an FM GUI or perfquery shows of it, the counters named as those tools name them. */
export function PortDetail({
  port,
  nodeName,
  onTarget,
  onOpenHistory,
  onSelectLink,
}: {
  nodeName: string;
  port: PortEntry;
  onTarget: (text: string) => void;
  onOpenHistory: (id: string) => void;
  onSelectLink: (id: string) => void;
}) {
  const rates = useRateFormat();
  const all = figureRows(port);
  const rows = all.filter((r) => !notReported(r));
  const absent = all.filter(notReported).map((r) => r.name);
  const categories = categoriesOf(port.fabricType);
  const terms = fabricTerms(port.fabricType);
  const { state, physical } = stateTexts(port);
  const directions: [string, LinkDirectionState | null][] = [
    ['out', port.out],
    ['in', port.in],
  ];
  const reasons = [
    ...new Set(rows.flatMap((r) => [r.rateUnknown, r.totalUnknown]).filter((r): r is string => r !== null)),
  ];
  const peer = `${port.neighbour.node}/${port.neighbour.port}`;
  const optics = opticRows(port);
  return (
    <>
      <dl className="port-facts">
        <dt>Neighbour</dt>
        <dd>
          <button type="button" className="link-button mono" onClick={() => onTarget(peer)}>
            {peer}
          </button>{' '}
          ({port.kind === 'isl' ? 'ISL' : 'host link'}, {terms.name})
        </dd>
        <dt>Speed × width</dt>
        <dd>{speedWidthText(port)}</dd>
        <dt>MTU</dt>
        <dd>{port.mtu === undefined ? '— (not in the topology)' : `${port.mtu} bytes`}</dd>
        <dt>Port state</dt>
        <dd>
          <strong>{state}</strong>
        </dd>
        <dt>Physical state</dt>
        <dd>{physical}</dd>
      </dl>
      <div className="button-row">
        {port.out && (
          <button type="button" className="btn btn-small" onClick={() => onSelectLink(port.out?.id ?? '')}>
            Flows and jobs
          </button>
        )}
        {port.out && (
          <button type="button" className="btn btn-small" onClick={() => onOpenHistory(port.out?.id ?? '')}>
            History out
          </button>
        )}
        {port.in && (
          <button type="button" className="btn btn-small" onClick={() => onOpenHistory(port.in?.id ?? '')}>
            History in
          </button>
        )}
      </div>
      <DataTable
        label={`Counters of ${nodeName}/${port.port}`}
        className="data-table port-counters"
        columns={['Counter', num('Rate'), num('Since clear', 'Total since the counters were last cleared')]}
      >
        {rows.map((r) => (
          <tr key={r.figure}>
            <th scope="row" className="mono">
              {r.name}
            </th>
            <td className="num">
              {r.rateUnknown ? <Unknown reason={r.rateUnknown} /> : rateText(r, rates.rate)}
            </td>
            <td className="num">
              {r.kind === 'gauge' ? (
                ''
              ) : r.totalUnknown ? (
                <Unknown reason={r.totalUnknown} />
              ) : (
                <span title={String(r.total)}>{formatTotal(r.total, r.kind === 'bytes' ? 'B' : '')}</span>
              )}
            </td>
          </tr>
        ))}
      </DataTable>
      <p className="hint">
        {port.totals ? `Totals as read at ${formatClock(Date.parse(port.totals.time))}; ` : ''}
        data in bytes ({port.fabricType === 'omnipath' ? 'opapmaquery counts 8-byte flits' : ''}
        {port.fabricType === 'infiniband' ? 'perfquery counts 4-byte words' : ''}
        {port.fabricType === 'ethernet' ? 'octets' : ''}).
        {reasons.map((r) => (
          <span key={r}> — : {r}.</span>
        ))}
        {absent.length > 0 && ` Not reported by this port’s source: ${absent.join(', ')}.`}
      </p>
      {optics.length > 0 && (
        <DataTable
          label={`Optics of ${nodeName}/${port.port}`}
          className="data-table port-optics"
          columns={['Optics', num('Reading'), num('dBm'), 'Sensor']}
        >
          {optics.map((o) => (
            <tr key={o.key}>
              <th scope="row">{o.name}</th>
              <td className="num">{o.unknown !== null ? <Unknown reason={o.unknown} /> : o.value}</td>
              <td className="num">{o.dbm}</td>
              <td className="muted">{o.description}</td>
            </tr>
          ))}
        </DataTable>
      )}
      <DataTable
        label={`Load of ${nodeName}/${port.port}`}
        columns={['Figure', ...directions.map(([d, s]) => num(d, s ? formatDirection(s.id) : undefined))]}
      >
        <tr>
          <th scope="row">Utilization</th>
          {directions.map(([d, s]) => (
            <td key={d} className="num">
              {formatPercent(s?.utilization)}
            </td>
          ))}
        </tr>
        {terms.waitCounter && (
          <tr>
            <th scope="row">Wait ({terms.waitCounter} share of time)</th>
            {directions.map(([d, s]) => (
              <td key={d} className="num">
                {formatPercent(s?.transmitWaitFraction)}
              </td>
            ))}
          </tr>
        )}
        {categories.map((c) => (
          <tr key={c}>
            <th scope="row">{CATEGORY_LABELS[c]} (× threshold)</th>
            {directions.map(([d, s]) => {
              const v = s?.categories[c];
              return (
                <td key={d} className="num">
                  {v === null || v === undefined ? '—' : v.toFixed(2)}
                </td>
              );
            })}
          </tr>
        ))}
      </DataTable>
    </>
  );
}
