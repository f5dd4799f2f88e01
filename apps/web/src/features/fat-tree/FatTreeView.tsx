import { memo, useMemo } from 'react';
import type { CompactSnapshot, FabricType, LinkDirectionState, Route, Topology } from '../../api/types.ts';
import { ErrorNote } from '../../components/ErrorNote.tsx';
import { Legend } from '../../components/Legend.tsx';
import { utilizationColor } from '../../lib/colors.ts';
import { CONGESTED_WAIT, isCongested } from '../../lib/congestion.ts';
import { buildFabricMatrix, type FabricMatrix } from '../../lib/fabricMatrix.ts';
import { anyNetworkHas, fabricTerms, networkTypes } from '../../lib/fabricTerms.ts';
import { formatDirection, formatPercent, formatRate, type RateUnit } from '../../lib/format.ts';
import { errorMarkRadius, errorRate, errorSummary } from '../../lib/health.ts';
import { type LayoutChannel, type LayoutNode, MAX_DRAWN_LINKS } from '../../lib/layout.ts';
import { channelIdAt } from '../../lib/linkSelection.ts';
import { channelIndexById, channelIndices, routeNodes } from '../../lib/route.ts';
import { usePreference } from '../../state/preferences.ts';
import type { Loadable } from '../../state/useTopology.ts';
import { FabricHeatmap } from '../heatmap/FabricHeatmap.tsx';
import { TierSummaryView } from '../tiers/TierSummaryView.tsx';
import { DrawingTable } from './DrawingTable.tsx';
import { type FabricLayout, layoutFabric } from './fabricLayout.ts';

interface FatTreeViewProps {
  topology: Loadable<Topology>;
  /** Latest sample per channel id (full stream), or null before the first stream message. */
  samples: ReadonlyMap<string, LinkDirectionState> | null;
  /** Latest compact stream message (fabrics above MAX_DRAWN_LINKS), or null. */
  compact: CompactSnapshot | null;
  /** A route to highlight (the route inspector's), or null. */
  route?: Route | null;
  onRetry: () => void;
  /** A click on a link direction (channel id): opens its history. */
  onSelectChannel?: (id: string) => void;
}

const NODE_H = 22;

function channelTitle(
  id: string,
  sample: LinkDirectionState | undefined,
  onRoute: boolean,
  unit: RateUnit,
  waitCounter: string | null,
  network: string,
): string {
  if (!sample) return `${formatDirection(id)}\nno sample`;
  const state = sample.linkUp === false ? ' (link DOWN)' : sample.stale ? ' (stale)' : '';
  const route = onRoute ? '\non the selected route' : '';
  const errors = errorSummary(sample, waitCounter ? null : network);
  const wait = waitCounter ? ` · wait ${formatPercent(sample.transmitWaitFraction)}` : '';
  return `${formatDirection(id)}${state}\n${sample.kind} · util ${formatPercent(sample.utilization)} · ${formatRate(sample.bytesPerSecond, unit)}${wait}${errors ? `\n${errors}` : ''}${route}`;
}

/** A node's hover text: LID and GUID only on networks that have them (not Ethernet). */
function nodeTitle(
  n: LayoutNode,
  fabricType: FabricType,
  ids: { lid: number; guid: string } | undefined,
): string {
  const terms = fabricTerms(n.network ?? fabricType);
  const parts = [`${n.name} (${n.type}${n.mark === 'router' ? '' : `, tier ${n.tier}`})`];
  if (n.network || n.mark === 'router')
    parts.push(n.mark === 'router' ? 'IP router between networks' : terms.name);
  if (ids && terms.hasLids && n.mark !== 'router') parts.push(`LID ${ids.lid}`);
  if (ids && terms.hasGuids && n.mark !== 'router') parts.push(`GUID ${ids.guid}`);
  return parts.join(' · ');
}

/** The node's symbol: a box, a single switch's hub, a host dot on the ring, or a router. */
function NodeMark({ node }: { node: LayoutNode }) {
  const w = node.width;
  if (node.mark === 'hub') return <circle className="node-hub" r={w / 2} />;
  if (node.mark === 'dot') return <circle className="node-dot" r={6} />;
  if (node.mark === 'router')
    return (
      <g className="router-mark">
        <circle r={w / 2} />
        {/* The usual router symbol: four arrows, two in and two out. */}
        <path d="M-10,-4 L-3,-4 M-10,-4 L-7,-7 M-10,-4 L-7,-1 M10,4 L3,4 M10,4 L7,1 M10,4 L7,7 M4,-10 L4,-3 M4,-10 L1,-7 M4,-10 L7,-7 M-4,10 L-4,3 M-4,10 L-7,7 M-4,10 L-1,7" />
      </g>
    );
  return <rect x={-w / 2} y={-NODE_H / 2} width={w} height={NODE_H} rx={node.type === 'switch' ? 3 : 11} />;
}

/** Where the error mark sits: near the receiving port, whose receive counters count the errors. */
function receiverPoint(c: LayoutChannel): { x: number; y: number } {
  return { x: c.x1 + (c.x2 - c.x1) * 0.78, y: c.y1 + (c.y2 - c.y1) * 0.78 };
}

/** Where the congestion marker sits: a quarter of the way from the sending (waiting) port. */
function senderPoint(c: LayoutChannel): { x: number; y: number } {
  return { x: c.x1 + (c.x2 - c.x1) * 0.22, y: c.y1 + (c.y2 - c.y1) * 0.22 };
}

/**
 * A cross on each cable that is down, on the centre line between its two direction strokes and
 * off the arrowheads (15 % of the cable from the midpoint, towards the first channel's sender).
 */
function downMarks(
  layout: FabricLayout,
  samples: FatTreeViewProps['samples'],
): { linkId: string; x: number; y: number }[] {
  const first = new Map<string, LayoutChannel>();
  const marks: { linkId: string; x: number; y: number }[] = [];
  for (const c of layout.channels) {
    if (samples?.get(c.id)?.linkUp !== false) continue;
    const other = first.get(c.linkId);
    if (!other) {
      first.set(c.linkId, c);
      continue;
    }
    marks.push({
      linkId: c.linkId,
      x: (c.mx + other.mx) / 2 + (other.x1 - other.x2) * 0.15,
      y: (c.my + other.my) / 2 + (other.y1 - other.y2) * 0.15,
    });
  }
  return marks;
}

function FatTreeSvg({
  layout,
  samples,
  name,
  fabricType,
  lids,
  route,
  onSelectChannel,
}: {
  layout: FabricLayout;
  samples: FatTreeViewProps['samples'];
  name: string;
  fabricType: FabricType;
  lids: ReadonlyMap<string, { lid: number; guid: string }>;
  route: Route | null;
  onSelectChannel: FatTreeViewProps['onSelectChannel'];
}) {
  const onRoute = useMemo(() => new Set(route?.links ?? []), [route]);
  const routeNodeSet = useMemo(() => routeNodes(route), [route]);
  const highlighted = layout.channels.filter((c) => onRoute.has(c.id));
  const unit = usePreference('rateUnit');
  const networkOf = useMemo(() => new Map(layout.nodes.map((n) => [n.name, n.network])), [layout]);
  // A cable's network (a router belongs to both: its other end decides), and its wait counter.
  const termsOf = (c: LayoutChannel) =>
    fabricTerms(networkOf.get(c.from.node) ?? networkOf.get(c.to.node) ?? fabricType);
  return (
    <svg
      className={`fat-tree ${route ? 'has-route' : ''}`}
      viewBox={`0 0 ${layout.width} ${layout.height}`}
      role="img"
      aria-label={`Fat-tree view of ${name}: link directions coloured by utilization${
        route ? `; ${route.label ?? `route ${route.from} → ${route.to}`} highlighted` : ''
      }`}
    >
      <g className="network-areas">
        {layout.networks.map((a) => (
          <g key={`${a.x}`} className={`network-area network-${a.fabricType}`}>
            <rect x={a.x} y={a.y} width={a.width} height={a.height} rx={8} />
            <text className="network-label" x={a.x + 10} y={a.y + 18}>
              {a.label}
            </text>
          </g>
        ))}
      </g>
      <g className="tier-labels">
        {layout.tiers.map((t) => (
          <text key={t.tier} x={6} y={t.y + 4} className="tier-label">
            {t.label}
          </text>
        ))}
      </g>
      <g className="route-halos">
        {highlighted.map((c) => (
          <line key={c.id} x1={c.x1} y1={c.y1} x2={c.x2} y2={c.y2} />
        ))}
      </g>
      <g className="channels">
        {layout.channels.map((c) => {
          const sample = samples?.get(c.id);
          const down = sample?.linkUp === false;
          const unknown = !sample || sample.stale || sample.utilization === null;
          const color = down || unknown ? undefined : utilizationColor(sample.utilization);
          const terms = termsOf(c);
          // No wait ring where the network has no XmitWait (Ethernet), whatever a source says.
          const congested = !down && terms.waitCounter !== null && isCongested(sample?.transmitWaitFraction);
          const routed = onRoute.has(c.id);
          const classes = [
            'channel',
            down ? 'channel-down' : unknown ? 'channel-unknown' : '',
            routed ? 'on-route' : '',
            congested ? 'channel-congested' : '',
          ];
          const marker = congested ? senderPoint(c) : null;
          const errorRadius = errorMarkRadius(sample);
          const errorAt = errorRadius === null ? null : receiverPoint(c);
          return (
            // biome-ignore lint/a11y/noStaticElementInteractions: a pointer shortcut; the ranking opens the same history by keyboard
            <g
              key={c.id}
              className={classes.join(' ')}
              data-channel-id={c.id}
              data-utilization={sample?.utilization ?? ''}
              data-wait={sample?.transmitWaitFraction ?? ''}
              data-errors={errorRate(sample) ?? ''}
              data-integrity={sample?.categories?.integrity ?? ''}
              data-link-up={
                sample?.linkUp === undefined || sample.linkUp === null ? '' : String(sample.linkUp)
              }
              onClick={onSelectChannel ? () => onSelectChannel(c.id) : undefined}
            >
              <title>{channelTitle(c.id, sample, routed, unit, terms.waitCounter, terms.name)}</title>
              <line x1={c.x1} y1={c.y1} x2={c.x2} y2={c.y2} stroke={color} />
              <path
                d="M-5,-3.5 L5,0 L-5,3.5 Z"
                transform={`translate(${c.mx},${c.my}) rotate(${c.angle})`}
                fill={color}
              />
              {marker && <circle className="wait-marker" cx={marker.x} cy={marker.y} r={4.5} />}
              {errorAt && errorRadius !== null && (
                <rect
                  className="error-marker"
                  x={-errorRadius}
                  y={-errorRadius}
                  width={2 * errorRadius}
                  height={2 * errorRadius}
                  transform={`translate(${errorAt.x},${errorAt.y}) rotate(45)`}
                />
              )}
            </g>
          );
        })}
      </g>
      <g className="down-marks">
        {downMarks(layout, samples).map((m) => (
          <g key={m.linkId} transform={`translate(${m.x},${m.y})`}>
            <circle r={7} />
            <path d="M-3.5,-3.5 L3.5,3.5 M3.5,-3.5 L-3.5,3.5" />
          </g>
        ))}
      </g>
      <g className="nodes">
        {layout.nodes.map((n) => (
          <g
            key={n.name}
            className={`node node-${n.type} ${routeNodeSet.has(n.name) ? 'node-on-route' : ''}`}
            transform={`translate(${n.x},${n.y})`}
          >
            <title>{nodeTitle(n, fabricType, lids.get(n.name))}</title>
            <NodeMark node={n} />
            {n.label ? (
              <text
                className="node-label"
                transform={`translate(${n.label.dx},${n.label.dy}) rotate(${n.label.rotate})`}
                y={4}
                textAnchor={n.label.anchor}
              >
                {n.name}
              </text>
            ) : (
              <text className="node-label" y={4} textAnchor="middle">
                {n.name}
              </text>
            )}
          </g>
        ))}
      </g>
    </svg>
  );
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
  const matrix = useMemo((): FabricMatrix | { kind: 'error'; message: string } => {
    try {
      return buildFabricMatrix(fabric);
    } catch (error) {
      return { kind: 'error', message: (error as Error).message };
    }
  }, [fabric]);
  if (matrix.kind === 'error') return <ErrorNote message={`Cannot draw the fabric: ${matrix.message}`} />;
  const onSelect = onSelectChannel
    ? (channel: number) => {
        const id = channelIdAt(fabric, channel);
        if (id) onSelectChannel(id);
      }
    : undefined;
  if (matrix.kind === 'other')
    return (
      <TierSummaryView
        topology={fabric}
        reason={matrix.reason}
        snapshot={compact}
        route={route}
        onSelectChannel={onSelectChannel}
      />
    );
  return (
    <FabricHeatmap
      name={fabric.name}
      matrix={matrix.matrix}
      snapshot={compact}
      marked={marked}
      onSelectChannel={onSelect}
    />
  );
}

const NO_LIDS: ReadonlyMap<string, { lid: number; guid: string }> = new Map();

/**
 * The fabric drawn by tier. D3 computed the positions (layoutFatTree) and colours; React draws
 * every element. Above MAX_DRAWN_LINKS links the SVG gives way to a canvas heatmap (two tiers) or
 * per-tier aggregates (more tiers), fed by the compact stream.
 */
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
