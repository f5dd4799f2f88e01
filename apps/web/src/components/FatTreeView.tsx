import { useMemo } from 'react';
import type { LinkSample, Topology } from '../api/types.ts';
import { utilizationColor } from '../lib/colors.ts';
import { formatGBps, formatPercent } from '../lib/format.ts';
import { countByTier, type FatTreeLayout, layoutFatTree, MAX_DRAWN_LINKS } from '../lib/layout.ts';
import type { Loadable } from '../state/useTopology.ts';
import { ErrorNote } from './ErrorNote.tsx';
import { Legend } from './Legend.tsx';

interface FatTreeViewProps {
  topology: Loadable<Topology>;
  /** Latest sample per channel id, or null before the first stream message. */
  samples: ReadonlyMap<string, LinkSample> | null;
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

/**
 * The fabric drawn by tier. D3 computed the positions (layoutFatTree) and colours; React draws
 * every element. Above MAX_DRAWN_LINKS links the drawing is replaced by an aggregated notice.
 */
export function FatTreeView({ topology, samples, onRetry }: FatTreeViewProps) {
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
  if (tooBig) {
    return (
      <div className="placeholder big-fabric" role="note">
        <p>
          {fabric.name} has {fabric.links.length.toLocaleString('en')} links, more than the {MAX_DRAWN_LINKS}{' '}
          this per-link drawing handles. Use the busiest-links table and the histograms; an aggregated view is
          planned.
        </p>
        <ul>
          {countByTier(fabric).map((t) => (
            <li key={t.tier}>
              {t.label}: {t.nodes} nodes
            </li>
          ))}
        </ul>
      </div>
    );
  }
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
