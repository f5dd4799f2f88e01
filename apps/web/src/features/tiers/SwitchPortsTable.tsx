import { formatRate } from '@fabscope/contracts/units';
import { type ReactNode, useMemo, useState } from 'react';
import { TableScroll } from '../../components/TableScroll.tsx';
import { UtilCell } from '../../components/UtilCell.tsx';
import { formatPercent, formatPerSecond } from '../../lib/format.ts';
import { isCongested } from '../../lib/linkHealth.ts';
import { usePreference } from '../../state/preferences.ts';
import {
  type SortOrder,
  type SwitchPortRow,
  type SwitchPortSort,
  sortSwitchPorts,
} from './switchPortRows.ts';

interface ColumnDef {
  key: SwitchPortSort;
  label: string;
  title?: string;
  num: boolean;
}

const COLUMNS: readonly ColumnDef[] = [
  { key: 'port', label: 'Port', num: true },
  { key: 'peer', label: 'To', num: false },
  { key: 'outUtil', label: 'Out util', num: true },
  { key: 'inUtil', label: 'In util', num: true },
  { key: 'outRate', label: 'Out rate', num: true },
  { key: 'inRate', label: 'In rate', num: true },
  { key: 'wait', label: 'Wait', num: true, title: 'XmitWait share of time leaving the port (congestion)' },
  { key: 'errors', label: 'Errors/s', num: true, title: 'Errors per second on the cable, both directions' },
];

function stateText(linkUp: boolean | null): string {
  return linkUp === null ? 'not reported' : linkUp ? 'up' : 'down';
}

interface SwitchPortsTableProps {
  /** Caption: whose ports these are. */
  caption: ReactNode;
  rows: readonly SwitchPortRow[];
  /** A port number's button: the drill-downs open the direction, the port page the port's own page. */
  onOpenPort?: ((row: SwitchPortRow) => void) | undefined;
  portTitle?: string;
  /** The far end's button (its port page); plain text when absent. */
  onOpenPeer?: ((row: SwitchPortRow) => void) | undefined;
  /** Adds each port's link state (the port page reads it per port; the stream only knows "down"). */
  withState?: boolean;
}

/**
 * One switch's ports with both directions' load, wait and errors, sorted by any column (a heading's
 * button; again reverses): the switch page's and every drill-down's one switch view.
 */
export function SwitchPortsTable({
  caption,
  rows,
  onOpenPort,
  portTitle,
  onOpenPeer,
  withState = false,
}: SwitchPortsTableProps) {
  const unit = usePreference('rateUnit');
  const [sort, setSort] = useState<{ key: SwitchPortSort; order: SortOrder }>({ key: 'port', order: 'asc' });
  const sorted = useMemo(() => sortSwitchPorts(rows, sort.key, sort.order), [rows, sort]);
  const pick = (key: SwitchPortSort) =>
    setSort((s) =>
      s.key === key
        ? { key, order: s.order === 'asc' ? 'desc' : 'asc' }
        : // Figures rank largest first; names and ports read in order.
          { key, order: key === 'port' || key === 'peer' ? 'asc' : 'desc' },
    );
  return (
    <TableScroll label="Ports of the switch">
      <table className="agg-table pod-ports switch-ports">
        <caption>{caption}</caption>
        <thead>
          <tr>
            {COLUMNS.map((c) => (
              <th
                key={c.key}
                scope="col"
                className={c.num ? 'num' : undefined}
                title={c.title}
                aria-sort={
                  sort.key === c.key ? (sort.order === 'asc' ? 'ascending' : 'descending') : undefined
                }
              >
                <button type="button" className="sort-button" onClick={() => pick(c.key)}>
                  {c.label}
                  <span aria-hidden="true">
                    {sort.key === c.key ? (sort.order === 'asc' ? ' ▲' : ' ▼') : ''}
                  </span>
                </button>
              </th>
            ))}
            {withState && <th scope="col">State</th>}
          </tr>
        </thead>
        <tbody>
          {sorted.map((r) => (
            <tr key={r.port}>
              <th scope="row" className="num">
                {onOpenPort ? (
                  <button
                    type="button"
                    className="link-button"
                    title={portTitle}
                    onClick={() => onOpenPort(r)}
                  >
                    {r.port}
                  </button>
                ) : (
                  r.port
                )}
              </th>
              <td className="mono">
                {onOpenPeer ? (
                  <button type="button" className="link-button mono" onClick={() => onOpenPeer(r)}>
                    {r.peer}/{r.peerPort}
                  </button>
                ) : (
                  `${r.peer}/${r.peerPort}`
                )}
              </td>
              <UtilCell value={r.outUtil} />
              <UtilCell value={r.inUtil} />
              <td className="num">{formatRate(r.outRate, unit)}</td>
              <td className="num">{formatRate(r.inRate, unit)}</td>
              <td className={`num ${isCongested(r.wait) ? 'wait-high' : ''}`}>{formatPercent(r.wait)}</td>
              <td
                className={`num ${r.errors !== null && r.errors > 0 ? 'errors-high' : r.errors === null ? 'muted' : ''}`}
                title={r.errors === null ? 'Error counters unknown here (not collected)' : undefined}
              >
                {formatPerSecond(r.errors)}
              </td>
              {withState && <td>{r.linkUp === false ? <strong>down</strong> : stateText(r.linkUp)}</td>}
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}
