import { useMemo } from 'react';
import type { CompactSnapshot, LoadStats, Route, Topology } from '../../api/types.ts';
import { DirectionButton } from '../../components/DirectionButton.tsx';
import { Legend } from '../../components/Legend.tsx';
import { TableScroll } from '../../components/TableScroll.tsx';
import { utilizationColor } from '../../lib/colors.ts';
import { formatCount, formatDirection, formatPercent, formatRate } from '../../lib/format.ts';
import { channelIdAt } from '../../lib/linkSelection.ts';
import { channelIndexById, pathLoads } from '../../lib/route.ts';
import { tierGroupsOf } from '../../lib/tierGroups.ts';
import { HOT_UTILIZATION, tierSummaryOf } from '../../lib/tierLoad.ts';
import { usePreference } from '../../state/preferences.ts';
import { useUrlParam } from '../../state/useUrlState.ts';
import { PodDrillDown } from './PodDrillDown.tsx';
import { parsePod, serializePod } from './podMatrix.ts';

interface TierSummaryViewProps {
  topology: Topology;
  /** Why the port-level heatmap does not apply. */
  reason: string;
  snapshot: CompactSnapshot | null;
  /** The highlighted route or job (its link directions), or null. */
  route?: Route | null;
  onSelectChannel?: ((id: string) => void) | undefined;
}

/** Link directions of a highlighted path listed; a job's may be many. */
const PATH_SHOWN = 16;

/** Pods listed, hottest first. */
const PODS_SHOWN = 12;

function Util({ value }: { value: number | null }) {
  return (
    <span className="util-chip">
      <span className="swatch" style={{ background: utilizationColor(value) }} aria-hidden="true" />
      {formatPercent(value)}
    </span>
  );
}

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

/**
 * Aggregated view for fabrics the heatmap does not cover (three tiers): load per tier and
 * direction, and the hottest pods; never one element per link.
 */
export function TierSummaryView({
  topology,
  reason,
  snapshot,
  route = null,
  onSelectChannel,
}: TierSummaryViewProps) {
  // The pod shown is in the URL (`?pod=2`, counted from 1 as the pods are named): a link reopens it.
  const [pod, setPod] = useUrlParam('pod', parsePod, serializePod);
  const unit = usePreference('rateUnit');
  const groups = tierGroupsOf(topology);
  // One function while the topology and the handler stay: the pod matrix is not made again per message.
  const selectPodChannel = useMemo(
    () =>
      onSelectChannel
        ? (channel: number) => {
            const id = channelIdAt(topology, channel);
            if (id) onSelectChannel(id);
          }
        : undefined,
    [topology, onSelectChannel],
  );
  const path = route
    ? pathLoads(
        route.links,
        channelIndexById(topology),
        snapshot?.utilization ?? null,
        snapshot?.waitFraction ?? null,
      )
    : null;
  // Made in the stream's worker with each live message; here for a past instant.
  const summary = useMemo(() => (snapshot ? tierSummaryOf(groups, snapshot) : null), [groups, snapshot]);
  const hot = `≥ ${HOT_UTILIZATION * 100} %`;
  return (
    <div className="tier-summary">
      <p className="muted">
        {topology.name}: {formatCount(topology.links.length)} links; {reason}. The port-level heatmap is for
        two-tier fabrics; here is the load per tier and per pod. The busiest link directions are ranked below.
      </p>
      {route && path && (
        <TableScroll label="Route through the tiers">
          <table className="agg-table" data-highlight="route">
            <caption>
              {route.label ?? `Route ${route.from} → ${route.to}`}
              {route.source === 'flow' ? ' (the path its flow takes now)' : ''}
            </caption>
            <thead>
              <tr>
                <th scope="col">Link direction</th>
                <th scope="col" className="num">
                  Util
                </th>
                <th scope="col" className="num">
                  Wait
                </th>
              </tr>
            </thead>
            <tbody>
              {path.slice(0, PATH_SHOWN).map((l) => (
                <tr key={l.id} className="on-route">
                  <td className="mono">
                    {onSelectChannel ? (
                      <DirectionButton id={l.id} onOpen={onSelectChannel} />
                    ) : (
                      formatDirection(l.id)
                    )}
                  </td>
                  <td className="num">
                    <Util value={l.utilization} />
                  </td>
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
            </tbody>
          </table>
        </TableScroll>
      )}
      {summary === null && <p className="placeholder">Waiting for the first sample…</p>}
      {summary && (
        <>
          <TableScroll label="Load per tier">
            <table className="agg-table">
              <caption>Load per tier</caption>
              <thead>
                <tr>
                  <th scope="col">Direction</th>
                  <th scope="col" className="num">
                    Link directions
                  </th>
                  <th scope="col" className="num">
                    Mean
                  </th>
                  <th scope="col" className="num">
                    Max
                  </th>
                  <th scope="col" className="num">
                    {hot}
                  </th>
                  <th scope="col" className="num">
                    Throughput
                  </th>
                  <th scope="col" className="num" title="Largest XmitWait share of time (congestion)">
                    Max wait
                  </th>
                  <th
                    scope="col"
                    className="num"
                    title="Directions with errors or integrity past its threshold"
                  >
                    With errors
                  </th>
                </tr>
              </thead>
              <tbody>
                {summary.rows.map((r) => (
                  <tr key={r.label}>
                    <th scope="row">{r.label}</th>
                    <td className="num">
                      {formatCount(r.directions)}
                      <span className="muted">{staleNote(r)}</span>
                    </td>
                    <td className="num">
                      <Util value={r.mean} />
                    </td>
                    <td className="num">
                      <Util value={r.max} />
                    </td>
                    <td className="num">{formatCount(r.hot)}</td>
                    <td className="num">{formatRate(r.bytesPerSecond, unit)}</td>
                    <td className="num">{formatPercent(r.maxWait)}</td>
                    <WithErrors count={r.withErrors} />
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
          <TableScroll label="Hottest pods">
            <table className="agg-table">
              <caption>Hottest pods (of {summary.pods.length}) by busiest ISL direction</caption>
              <thead>
                <tr>
                  <th scope="col">Pod</th>
                  <th scope="col" className="num">
                    Switches
                  </th>
                  <th scope="col" className="num">
                    Hosts
                  </th>
                  <th scope="col" className="num">
                    ISL max
                  </th>
                  <th scope="col" className="num">
                    ISL mean
                  </th>
                  <th scope="col" className="num">
                    Host links max
                  </th>
                  <th scope="col" className="num">
                    ISLs {hot}
                  </th>
                  <th scope="col" className="num">
                    ISL max wait
                  </th>
                  <th scope="col" className="num">
                    With errors
                  </th>
                </tr>
              </thead>
              <tbody>
                {summary.pods.slice(0, PODS_SHOWN).map((p) => (
                  <tr key={p.name}>
                    <th scope="row">
                      <button
                        type="button"
                        className="link-button"
                        title={`Show ${p.name}'s switches and cables below`}
                        onClick={() => setPod(Number(p.name.replace('pod ', '')) - 1)}
                      >
                        {p.name}
                      </button>
                    </th>
                    <td className="num">{p.switches}</td>
                    <td className="num">{formatCount(p.hosts)}</td>
                    <td className="num">
                      <Util value={p.isl.max} />
                    </td>
                    <td className="num">
                      <Util value={p.isl.mean} />
                    </td>
                    <td className="num">
                      <Util value={p.host.max} />
                    </td>
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
              </tbody>
            </table>
          </TableScroll>
        </>
      )}
      {summary && summary.pods.length > 0 && (
        <PodDrillDown
          topology={topology}
          snapshot={snapshot}
          pod={pod}
          onPodChange={setPod}
          onSelectChannel={selectPodChannel}
        />
      )}
      <div className="fat-tree-footer">
        <Legend marks="cell" />
      </div>
    </div>
  );
}
