import { useMemo } from 'react';
import type { CompactSnapshot, LinkSample, Topology } from '../api/types.ts';
import { utilizationColor } from '../lib/colors.ts';
import { buildFabricMatrix, type FabricMatrix } from '../lib/fabricMatrix.ts';
import { formatGBps, formatPercent } from '../lib/format.ts';
import { type FatTreeLayout, layoutFatTree, MAX_DRAWN_LINKS } from '../lib/layout.ts';
import type { Loadable } from '../state/useTopology.ts';
import { ErrorNote } from './ErrorNote.tsx';
import { FabricHeatmap } from './FabricHeatmap.tsx';
import { Legend } from './Legend.tsx';
import { TierSummaryView } from './TierSummaryView.tsx';

interface FatTreeViewProps {
  topology: Loadable<Topology>;
  /** Latest sample per channel id (full stream), or null before the first stream message. */
  samples: ReadonlyMap<string, LinkSample> | null;
  /** Latest compact stream message (fabrics above MAX_DRAWN_LINKS), or null. */
  compact: CompactSnapshot | null;
  onRetry: () => void;
}

const NODE_W = { switch: 64, host: 56, router: 56 } as const;
const NODE_H = 22;

function channelTitle(id: string, sample: LinkSample | undefined): string {
  if (!sample) return `${id}\nno sample`;
  const state = sample.stale ? ' (stale)' : '';
  return `${id}${state}\n${sample.kind} · util ${formatPercent(sample.utilization)} · ${formatGBps(sample.bytesPerSecond)}`;
}

function FatTreeSvg({
  layout,
  samples,
  name,
}: {
  layout: FatTreeLayout;
  samples: FatTreeViewProps['samples'];
  name: string;
}) {
  return (
    <svg
      className="fat-tree"
      viewBox={`0 0 ${layout.width} ${layout.height}`}
      role="img"
      aria-label={`Fat-tree view of ${name}: link directions coloured by utilization`}
    >
      <g className="tier-labels">
        {layout.tiers.map((t) => (
          <text key={t.tier} x={6} y={t.y + 4} className="tier-label">
            {t.label}
          </text>
        ))}
      </g>
      <g className="channels">
        {layout.channels.map((c) => {
          const sample = samples?.get(c.id);
          const unknown = !sample || sample.stale || sample.utilization === null;
          const color = unknown ? undefined : utilizationColor(sample.utilization);
          return (
            <g
              key={c.id}
              className={`channel ${unknown ? 'channel-unknown' : ''}`}
              data-channel-id={c.id}
              data-utilization={sample?.utilization ?? ''}
            >
              <title>{channelTitle(c.id, sample)}</title>
              <line x1={c.x1} y1={c.y1} x2={c.x2} y2={c.y2} stroke={color} />
              <path
                d="M-5,-3.5 L5,0 L-5,3.5 Z"
                transform={`translate(${c.mx},${c.my}) rotate(${c.angle})`}
                fill={color}
              />
            </g>
          );
        })}
      </g>
      <g className="nodes">
        {layout.nodes.map((n) => {
          const w = NODE_W[n.type];
          return (
            <g key={n.name} className={`node node-${n.type}`} transform={`translate(${n.x},${n.y})`}>
              <title>{`${n.name} (${n.type}, tier ${n.tier})`}</title>
              <rect x={-w / 2} y={-NODE_H / 2} width={w} height={NODE_H} rx={n.type === 'switch' ? 3 : 11} />
              <text y={4} textAnchor="middle">
                {n.name}
              </text>
            </g>
          );
        })}
      </g>
    </svg>
  );
}

/** Big fabrics: the canvas heatmap of a two-tier fat tree, or per-tier aggregates otherwise. */
function BigFabricView({ fabric, compact }: { fabric: Topology; compact: CompactSnapshot | null }) {
  const matrix = useMemo((): FabricMatrix | { kind: 'error'; message: string } => {
    try {
      return buildFabricMatrix(fabric);
    } catch (error) {
      return { kind: 'error', message: (error as Error).message };
    }
  }, [fabric]);
  if (matrix.kind === 'error') return <ErrorNote message={`Cannot draw the fabric: ${matrix.message}`} />;
  if (matrix.kind === 'other')
    return <TierSummaryView topology={fabric} reason={matrix.reason} snapshot={compact} />;
  return <FabricHeatmap name={fabric.name} matrix={matrix.matrix} snapshot={compact} />;
}

/**
 * The fabric drawn by tier. D3 computed the positions (layoutFatTree) and colours; React draws
 * every element. Above MAX_DRAWN_LINKS links the SVG gives way to a canvas heatmap (two tiers) or
 * per-tier aggregates (more tiers), fed by the compact stream.
 */
export function FatTreeView({ topology, samples, compact, onRetry }: FatTreeViewProps) {
  const fabric = topology.status === 'ready' ? topology.data : null;
  const tooBig = fabric !== null && fabric.links.length > MAX_DRAWN_LINKS;
  const layout = useMemo((): { layout: FatTreeLayout } | { error: string } | null => {
    if (!fabric || tooBig) return null;
    try {
      return { layout: layoutFatTree(fabric) };
    } catch (error) {
      return { error: (error as Error).message };
    }
  }, [fabric, tooBig]);

  if (topology.status === 'loading') return <p className="placeholder">Loading topology…</p>;
  if (topology.status === 'error')
    return <ErrorNote message={`Topology: ${topology.message}`} onRetry={onRetry} />;
  if (!fabric) return null;
  if (fabric.nodes.length === 0) return <p className="placeholder">The fabric has no nodes.</p>;
  if (tooBig) return <BigFabricView fabric={fabric} compact={compact} />;
  if (!layout) return null;
  if ('error' in layout) return <ErrorNote message={`Cannot draw the fabric: ${layout.error}`} />;
  return (
    <div className="fat-tree-wrap">
      <FatTreeSvg layout={layout.layout} samples={samples} name={fabric.name} />
      <div className="fat-tree-footer">
        <Legend />
        <span className="hint">
          Two strokes per cable, one per direction (arrow); hover for id, utilization and GB/s.
          {samples === null && ' Waiting for the first sample.'}
        </span>
      </div>
    </div>
  );
}
