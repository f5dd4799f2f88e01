import { formatRate } from '@fabscope/contracts/units';
import type { LoadStats, PodStats, Route, TierRowInfo } from '../../api/types.ts';
import { DataTable, num } from '../../components/DataTable.tsx';
import { DirectionButton } from '../../components/DirectionButton.tsx';
import { UtilCell } from '../../components/UtilCell.tsx';
import { formatCount, formatDirection, formatPercent } from '../../lib/format.ts';
import type { PathLoad } from '../../lib/route.ts';
import { HOT_UTILIZATION } from '../../lib/tierLoad.ts';
import { usePreference } from '../../state/preferences.ts';

/** Link directions of a highlighted path listed; a job's may be many. */
const PATH_SHOWN = 16;
const PODS_SHOWN = 12;
const HOT = `≥ ${HOT_UTILIZATION * 100} %`;

/** How many directions have errors; "—" when their error counters are unknown (never 0). */
function WithErrors({ count }: { count: number | null }) {
  if (count === null)
    return (
      <td
        className="num muted"
        title="Error counters unknown here (not collected, or not kept for past instants)"
      >
        —
      </td>
    );
  return <td className={`num ${count > 0 ? 'errors-high' : ''}`}>{formatCount(count)}</td>;
}

function staleNote(s: LoadStats): string {
  const unknown = s.directions - s.known;
  return unknown > 0 ? ` (${formatCount(unknown)} unknown)` : '';
}

/** A highlighted route's link directions with their load now. */
export function RouteLoadTable({
  route,
  path,
  onSelectChannel,
}: {
  route: Route;
  path: readonly PathLoad[];
  onSelectChannel?: ((id: string) => void) | undefined;
}) {
  return (
    <DataTable
      label="Route through the tiers"
      className="agg-table"
      data-highlight="route"
      caption={
        <>
          {route.label ?? `Route ${route.from} → ${route.to}`}
          {route.source === 'flow' ? ' (the path its flow takes now)' : ''}
        </>
      }
      columns={['Link direction', num('Util'), num('Wait')]}
    >
      {path.slice(0, PATH_SHOWN).map((l) => (
        <tr key={l.id} className="on-route">
          <td className="mono">
            {onSelectChannel ? <DirectionButton id={l.id} onOpen={onSelectChannel} /> : formatDirection(l.id)}
          </td>
          <UtilCell value={l.utilization} />
          <td className="num">{formatPercent(l.waitFraction)}</td>
        </tr>
      ))}
      {path.length > PATH_SHOWN && (
        <tr>
          <td colSpan={3} className="muted">
            … and {formatCount(path.length - PATH_SHOWN)} more
          </td>
        </tr>
      )}
    </DataTable>
  );
}

/** The load per tier pair and direction. */
export function TierLoadTable({ rows }: { rows: readonly (TierRowInfo & LoadStats)[] }) {
  const unit = usePreference('rateUnit');
  return (
    <DataTable
      label="Load per tier"
      className="agg-table"
      caption="Load per tier"
      columns={[
        'Direction',
        num('Link directions'),
        num('Mean'),
        num('Max'),
        num(HOT),
        num('Throughput'),
        num('Max wait', 'Largest XmitWait share of time (congestion)'),
        num('With errors', 'Directions with errors or integrity past its threshold'),
      ]}
    >
      {rows.map((r) => (
        <tr key={r.label}>
          <th scope="row">{r.label}</th>
          <td className="num">
            {formatCount(r.directions)}
            <span className="muted">{staleNote(r)}</span>
          </td>
          <UtilCell value={r.mean} />
          <UtilCell value={r.max} />
          <td className="num">{formatCount(r.hot)}</td>
          <td className="num">{formatRate(r.bytesPerSecond, unit)}</td>
          <td className="num">{formatPercent(r.maxWait)}</td>
          <WithErrors count={r.withErrors} />
        </tr>
      ))}
    </DataTable>
  );
}

/** The hottest pods by busiest ISL direction; a pod's name opens it below. */
export function HottestPodsTable({
  pods,
  onPod,
}: {
  pods: readonly PodStats[];
  onPod: (pod: number) => void;
}) {
  return (
    <DataTable
      label="Hottest pods"
      className="agg-table"
      caption={<>Hottest pods (of {pods.length}) by busiest ISL direction</>}
      columns={[
        'Pod',
        num('Switches'),
        num('Hosts'),
        num('ISL max'),
        num('ISL mean'),
        num('Host links max'),
        num(<>ISLs {HOT}</>),
        num('ISL max wait'),
        num('With errors'),
      ]}
    >
      {pods.slice(0, PODS_SHOWN).map((p) => (
        <tr key={p.name}>
          <th scope="row">
            <button
              type="button"
              className="link-button"
              title={`Show ${p.name}'s switches and cables below`}
              onClick={() => onPod(Number(p.name.replace('pod ', '')) - 1)}
            >
              {p.name}
            </button>
          </th>
          <td className="num">{p.switches}</td>
          <td className="num">{formatCount(p.hosts)}</td>
          <UtilCell value={p.isl.max} />
          <UtilCell value={p.isl.mean} />
          <UtilCell value={p.host.max} />
          <td className="num">{p.isl.hot}</td>
          <td className="num">{formatPercent(p.isl.maxWait)}</td>
          <WithErrors
            count={
              p.isl.withErrors === null || p.host.withErrors === null
                ? null
                : p.isl.withErrors + p.host.withErrors
            }
          />
        </tr>
      ))}
    </DataTable>
  );
}
