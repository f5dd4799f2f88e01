import type { LinkDirectionState, Topology } from '@fabscope/contracts';
import { memo, useMemo } from 'react';
import type { CompactSnapshot, Route } from '../../api/types.ts';
import { ErrorNote } from '../../components/ErrorNote.tsx';
import { Legend } from '../../components/Legend.tsx';
import { buildFabricMatrix, type FabricMatrix } from '../../lib/fabricMatrix.ts';
import { anyNetworkHas, networkTypes } from '../../lib/fabricTerms.ts';
import { MAX_DRAWN_LINKS } from '../../lib/layout.ts';
import { CONGESTED_WAIT } from '../../lib/linkHealth.ts';
import { channelIdAt } from '../../lib/linkSelection.ts';
import { channelIndexById, channelIndices } from '../../lib/route.ts';
import type { Loadable } from '../../state/useTopology.ts';
import { FabricHeatmap } from '../heatmap/FabricHeatmap.tsx';
import { SwitchDrillDown } from '../tiers/SwitchDrillDown.tsx';
import { TierSummaryView } from '../tiers/TierSummaryView.tsx';
import { DrawingTable } from './DrawingTable.tsx';
import { FatTreeSvg } from './FatTreeSvg.tsx';
import { type FabricLayout, layoutFabric } from './fabricLayout.ts';

interface FatTreeViewProps {
  topology: Loadable<Topology>;
  /** Latest sample per channel id (full stream), or null before the first stream message. */
  samples: ReadonlyMap<string, LinkDirectionState> | null;
  /** Latest compact stream message (fabrics above MAX_DRAWN_LINKS), or null. */
  compact: CompactSnapshot | null;
  route?: Route | null;
  onRetry: () => void;
  /** A click on a link direction (channel id): opens its history. */
  onSelectChannel?: (id: string) => void;
}

/** What the marks on the drawing mean, beside the colour legend. */
function MarkLegend({ route, waitCounter }: { route: Route | null; waitCounter: boolean }) {
  return (
    <ul className="mark-legend" aria-label="Marks on the drawing">
      {waitCounter && (
        <li>
          <svg width="14" height="14" aria-hidden="true">
            <circle className="wait-marker" cx="7" cy="7" r="4.5" />
          </svg>
          waiting for credit ≥ {CONGESTED_WAIT * 100} % (XmitWait, at the sender)
        </li>
      )}
      <li>
        <svg width="14" height="14" aria-hidden="true">
          <rect className="error-marker" x="3" y="3" width="8" height="8" transform="rotate(45 7 7)" />
        </svg>
        errors at the receiver (size grows with log errors/s)
      </li>
      {route && (
        <li>
          <span className="swatch swatch-route" /> {route.label ?? `route ${route.from} → ${route.to}`}
        </li>
      )}
    </ul>
  );
}

/** Big fabrics: the canvas heatmap of a two-tier fat tree, or per-tier aggregates otherwise. */
function BigFabricView({
  fabric,
  compact,
  route,
  onSelectChannel,
}: {
  fabric: Topology;
  compact: CompactSnapshot | null;
  route: Route | null;
  onSelectChannel: FatTreeViewProps['onSelectChannel'];
}) {
  const marked = useMemo(
    () => (route ? channelIndices(channelIndexById(fabric), route.links) : null),
    [fabric, route],
  );
  const matrix = useMemo((): SwitchesMatrix | { kind: 'error'; message: string } => {
    try {
      const built = buildFabricMatrix(fabric);
      return built.kind === 'two-tier'
        ? { ...built, switches: [...built.matrix.edges, ...built.matrix.cores] }
        : built;
    } catch (error) {
      return { kind: 'error', message: (error as Error).message };
    }
  }, [fabric]);
  // One function while the fabric and the handler stay: the pod matrix is not made again per message.
  const onSelect = useMemo(
    () =>
      onSelectChannel &&
      ((channel: number) => {
        const id = channelIdAt(fabric, channel);
        if (id) onSelectChannel(id);
      }),
    [fabric, onSelectChannel],
  );
  if (matrix.kind === 'error') return <ErrorNote message={`Cannot draw the fabric: ${matrix.message}`} />;
  if (matrix.kind === 'other')
    return (
      <TierSummaryView
        topology={fabric}
        reason={matrix.reason}
        snapshot={compact}
        route={route}
        onSelectChannel={onSelectChannel}
        onSelectChannelAt={onSelect}
      />
    );
  return (
    <>
      <FabricHeatmap
        name={fabric.name}
        matrix={matrix.matrix}
        snapshot={compact}
        marked={marked}
        onSelectChannel={onSelect}
      />
      <SwitchDrillDown
        topology={fabric}
        switches={matrix.switches}
        snapshot={compact}
        onSelectChannel={onSelect}
      />
    </>
  );
}

/** A fabric's matrix, with a two-tier one's switches listed once for the drill-down's picker. */
type SwitchesMatrix =
  | Exclude<FabricMatrix, { kind: 'two-tier' }>
  | (FabricMatrix & { kind: 'two-tier'; switches: string[] });

const NO_LIDS: ReadonlyMap<string, { lid: number; guid: string }> = new Map();

/** The fabric drawn by tier; above MAX_DRAWN_LINKS a canvas heatmap or per-tier aggregates instead. */
export const FatTreeView = memo(function FatTreeView({
  topology,
  samples,
  compact,
  route = null,
  onRetry,
  onSelectChannel,
}: FatTreeViewProps) {
  const fabric = topology.status === 'ready' ? topology.data : null;
  const tooBig = fabric !== null && fabric.links.length > MAX_DRAWN_LINKS;
  const layout = useMemo((): { layout: FabricLayout } | { error: string } | null => {
    if (!fabric || tooBig) return null;
    try {
      return { layout: layoutFabric(fabric) };
    } catch (error) {
      return { error: (error as Error).message };
    }
  }, [fabric, tooBig]);
  // Only for a fabric drawn node by node: a larger one's 30,000 entries would stay on the heap unread.
  const lids = useMemo(
    () =>
      fabric && !tooBig ? new Map(fabric.nodes.map((n) => [n.name, { lid: n.lid, guid: n.guid }])) : NO_LIDS,
    [fabric, tooBig],
  );

  if (topology.status === 'loading') return <p className="placeholder">Loading topology…</p>;
  if (topology.status === 'error')
    return <ErrorNote message={`Topology: ${topology.message}`} onRetry={onRetry} />;
  if (!fabric) return null;
  if (fabric.nodes.length === 0) return <p className="placeholder">The fabric has no nodes.</p>;
  if (tooBig)
    return (
      <BigFabricView fabric={fabric} compact={compact} route={route} onSelectChannel={onSelectChannel} />
    );
  if (!layout) return null;
  const hasWait = anyNetworkHas(networkTypes(fabric), 'waitCounter');
  if ('error' in layout) return <ErrorNote message={`Cannot draw the fabric: ${layout.error}`} />;
  return (
    <div className="fat-tree-wrap">
      <FatTreeSvg
        layout={layout.layout}
        samples={samples}
        name={fabric.name}
        fabricType={fabric.fabricType}
        lids={lids}
        route={route}
        onSelectChannel={onSelectChannel}
      />
      <div className="fat-tree-footer">
        <Legend />
        <MarkLegend route={route} waitCounter={hasWait} />
        <span className="hint">
          Two strokes per cable, one per direction (arrow); the table below lists them; hover for utilization,
          rate
          {hasWait ? ' and wait' : ''}
          {onSelectChannel ? '; click one for the flows and jobs on it, and its history.' : '.'}
          {samples === null && ' Waiting for the first sample.'}
        </span>
      </div>
      <DrawingTable
        channels={layout.layout.channels}
        nodes={layout.layout.nodes}
        fabricType={fabric.fabricType}
        samples={samples}
        onSelectChannel={onSelectChannel}
      />
    </div>
  );
});
