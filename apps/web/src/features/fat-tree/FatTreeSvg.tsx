import type { FabricType, LinkDirectionState } from '@fabscope/contracts';
import type { RateUnit } from '@fabscope/contracts/units';
import { useMemo } from 'react';
import type { Route } from '../../api/types.ts';
import { utilizationColor } from '../../lib/colors.ts';
import { type FabricTerms, fabricTerms } from '../../lib/fabricTerms.ts';
import type { LayoutChannel, LayoutNode } from '../../lib/layout.ts';
import { errorMarkRadius, errorRate, isCongested } from '../../lib/linkHealth.ts';
import { routeNodes } from '../../lib/route.ts';
import { usePreference } from '../../state/preferences.ts';
import type { FabricLayout } from './fabricLayout.ts';
import { channelTitle, downMarks, nodeTitle, receiverPoint, senderPoint } from './fatTreeMarks.ts';

const NODE_H = 22;

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

/** What one channel's hover and marks need besides its layout. */
interface ChannelContext {
  samples: ReadonlyMap<string, LinkDirectionState> | null;
  onRoute: ReadonlySet<string>;
  termsOf: (c: LayoutChannel) => FabricTerms;
  unit: RateUnit;
  onSelectChannel?: ((id: string) => void) | undefined;
}

/** One link direction: its stroke and arrow coloured by utilization, its wait and error marks. */
function channelMark(c: LayoutChannel, { samples, onRoute, termsOf, unit, onSelectChannel }: ChannelContext) {
  const sample = samples?.get(c.id);
  const down = sample?.linkUp === false;
  const unknown = !sample || sample.stale || sample.utilization === null;
  const color = down || unknown ? undefined : utilizationColor(sample.utilization);
  const terms = termsOf(c);
  // No wait ring where the network has no wait counter, whatever a source says.
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
      data-link-up={sample?.linkUp === undefined || sample.linkUp === null ? '' : String(sample.linkUp)}
      onClick={onSelectChannel ? () => onSelectChannel(c.id) : undefined}
    >
      <title>
        {channelTitle(c.id, sample, routed, unit, terms.waitCounter, terms.name, terms.pmCategories)}
      </title>
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
}

/** The fabric drawn by tier as SVG: D3 computed the positions (layoutFabric), React draws every element. */
export function FatTreeSvg({
  layout,
  samples,
  name,
  fabricType,
  lids,
  route,
  onSelectChannel,
}: {
  layout: FabricLayout;
  samples: ReadonlyMap<string, LinkDirectionState> | null;
  name: string;
  fabricType: FabricType;
  lids: ReadonlyMap<string, { lid: number; guid: string }>;
  route: Route | null;
  onSelectChannel?: ((id: string) => void) | undefined;
}) {
  const onRoute = useMemo(() => new Set(route?.links ?? []), [route]);
  const routeNodeSet = useMemo(() => routeNodes(route), [route]);
  const highlighted = layout.channels.filter((c) => onRoute.has(c.id));
  const unit = usePreference('rateUnit');
  const networkOf = useMemo(() => new Map(layout.nodes.map((n) => [n.name, n.network])), [layout]);
  // A cable's network (a router belongs to both: its other end decides), and its wait counter.
  const termsOf = (c: LayoutChannel) =>
    fabricTerms(networkOf.get(c.from.node) ?? networkOf.get(c.to.node) ?? fabricType);
  const channels: ChannelContext = { samples, onRoute, termsOf, unit, onSelectChannel };
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
      <g className="channels">{layout.channels.map((c) => channelMark(c, channels))}</g>
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
