import type { Topology } from '@fabscope/contracts';
import { useMemo } from 'react';
import type { CompactSnapshot, Route } from '../../api/types.ts';
import { Legend } from '../../components/Legend.tsx';
import { formatCount } from '../../lib/format.ts';
import { channelIndexById, pathLoads } from '../../lib/route.ts';
import { tierGroupsOf } from '../../lib/tierGroups.ts';
import { tierSummaryOf } from '../../lib/tierLoad.ts';
import { useUrlParam } from '../../state/useUrlState.ts';
import { PodDrillDown } from './PodDrillDown.tsx';
import { parsePod, serializePod } from './podMatrix.ts';
import { HottestPodsTable, RouteLoadTable, TierLoadTable } from './TierTables.tsx';

interface TierSummaryViewProps {
  topology: Topology;
  /** Why the port-level heatmap does not apply. */
  reason: string;
  snapshot: CompactSnapshot | null;
  /** The highlighted route or job (its link directions), or null. */
  route?: Route | null;
  onSelectChannel?: ((id: string) => void) | undefined;
  /** The same by channel index, stable while the topology and the handler stay (the pod matrix keeps it). */
  onSelectChannelAt?: ((channel: number) => void) | undefined;
}

/** Load per tier and the hottest pods, for fabrics the heatmap does not cover; no element per link. */
export function TierSummaryView({
  topology,
  reason,
  snapshot,
  route = null,
  onSelectChannel,
  onSelectChannelAt,
}: TierSummaryViewProps) {
  // The pod shown is in the URL (`?pod=2`, counted from 1 as the pods are named): a link reopens it.
  const [pod, setPod] = useUrlParam('pod', parsePod, serializePod);
  const groups = tierGroupsOf(topology);
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
  return (
    <div className="tier-summary">
      <p className="muted">
        {topology.name}: {formatCount(topology.links.length)} links; {reason}. The port-level heatmap is for
        two-tier fabrics; here is the load per tier and per pod. The busiest link directions are ranked below.
      </p>
      {route && path && <RouteLoadTable route={route} path={path} onSelectChannel={onSelectChannel} />}
      {summary === null && <p className="placeholder">Waiting for the first sample…</p>}
      {summary && (
        <>
          <TierLoadTable rows={summary.rows} />
          <HottestPodsTable pods={summary.pods} onPod={setPod} />
        </>
      )}
      {summary && summary.pods.length > 0 && (
        <PodDrillDown
          topology={topology}
          snapshot={snapshot}
          pod={pod}
          onPodChange={setPod}
          onSelectChannel={onSelectChannelAt}
        />
      )}
      <div className="fat-tree-footer">
        <Legend marks="cell" />
      </div>
    </div>
  );
}
