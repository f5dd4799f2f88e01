import type { FabricType, LinkKind, NodeType, PortRef, Topology } from '@fabscope/contracts';
import { naturalCompare } from '@fabscope/contracts/names';
import { scalePoint } from 'd3-scale';

/** Fat-tree layout: a row per tier, core on top; each link two channels either side of the cable. */

export interface LayoutOptions {
  /** Minimum horizontal room per node in the busiest row, in px. */
  nodeSpacing?: number;
  /** Vertical distance between tiers, in px. */
  tierGap?: number;
  margin?: number;
  minWidth?: number;
  /** Room left of the rows for the tier labels, in px. */
  gutter?: number;
  /** Distance of each directional stroke from the cable's centre line, in px. */
  channelOffset?: number;
}

export interface LayoutNode {
  name: string;
  type: NodeType;
  tier: number;
  x: number;
  y: number;
  /** Width of the node's box, in px: wide enough for its name. */
  width: number;
  /** Where the name is written relative to (x, y); absent: centred in the box. */
  label?: { dx: number; dy: number; rotate: number; anchor: 'start' | 'end' | 'middle' };
  /** How the node is drawn: a box (default), a single switch's hub, a host dot, a router. */
  mark?: 'box' | 'hub' | 'dot' | 'router';
  /** The network the node belongs to, on fabrics of several networks. */
  network?: FabricType;
}

export type ChannelDirection = 'up' | 'down' | 'level';

export interface LayoutChannel {
  /** Channel id `from/port->to/port`, as the stream names link directions. */
  id: string;
  linkId: string;
  kind: LinkKind;
  from: PortRef;
  to: PortRef;
  direction: ChannelDirection;
  x1: number;
  y1: number;
  x2: number;
  y2: number;
  /** Midpoint of the stroke and its heading in degrees (0 = pointing right), for an arrowhead. */
  mx: number;
  my: number;
  angle: number;
}

export interface LayoutTier {
  tier: number;
  label: string;
  y: number;
}

export interface FatTreeLayout {
  width: number;
  height: number;
  tiers: LayoutTier[];
  nodes: LayoutNode[];
  channels: LayoutChannel[];
}

/** Node labels are 11 px semibold sans; 7 px a character over-estimates every font we ship. */
export const LABEL_CHAR_PX = 7;
const BOX_MIN_WIDTH = { switch: 64, host: 56, router: 56 } as const;

/** A node's box: its type's minimum, or wider when its name needs it. */
export function nodeBoxWidth(type: NodeType, name: string): number {
  return Math.max(BOX_MIN_WIDTH[type], name.length * LABEL_CHAR_PX + 12);
}

/** Above this many links the per-channel SVG gives way to a heatmap or per-tier aggregates. */
export const MAX_DRAWN_LINKS = 2000;

const DEFAULTS: Required<LayoutOptions> = {
  nodeSpacing: 96,
  tierGap: 150,
  margin: 48,
  minWidth: 640,
  gutter: 72,
  channelOffset: 4,
};

export function channelId(from: PortRef, to: PortRef): string {
  return `${from.node}/${from.port}->${to.node}/${to.port}`;
}

export function tierLabel(tier: number): string {
  if (tier === 0) return 'hosts';
  if (tier === 1) return 'edge';
  if (tier === 2) return 'core';
  return `tier ${tier}`;
}

/** Lays out a fat tree; throws on links that name unknown nodes or on duplicate node names. */
export function layoutFatTree(topology: Topology, options: LayoutOptions = {}): FatTreeLayout {
  const o = { ...DEFAULTS, ...options };
  const byName = new Map<string, Topology['nodes'][number]>();
  for (const node of topology.nodes) {
    if (byName.has(node.name)) throw new Error(`layoutFatTree: duplicate node "${node.name}"`);
    byName.set(node.name, node);
  }
  for (const link of topology.links) {
    for (const end of [link.a, link.b]) {
      if (!byName.has(end.node)) {
        throw new Error(`layoutFatTree: link "${link.id}" references unknown node "${end.node}"`);
      }
    }
  }

  // Rows, highest tier first.
  const rows = new Map<number, string[]>();
  for (const node of topology.nodes) {
    const row = rows.get(node.tier);
    if (row) row.push(node.name);
    else rows.set(node.tier, [node.name]);
  }
  const tiers = [...rows.keys()].sort((a, b) => b - a);

  // Switch rows in natural name order; each lower row ordered under its neighbours above.
  const position = new Map<string, number>();
  const neighboursAbove = new Map<string, string[]>();
  for (const link of topology.links) {
    const a = byName.get(link.a.node);
    const b = byName.get(link.b.node);
    if (!a || !b || a.tier === b.tier) continue;
    const [low, high] = a.tier < b.tier ? [a, b] : [b, a];
    const list = neighboursAbove.get(low.name);
    if (list) list.push(high.name);
    else neighboursAbove.set(low.name, [high.name]);
  }
  for (const tier of tiers) {
    const row = rows.get(tier) ?? [];
    const anchor = (name: string): number => {
      if (tier !== 0) return 0; // switch rows: name order only
      const above = (neighboursAbove.get(name) ?? [])
        .map((n) => position.get(n))
        .filter((p) => p !== undefined);
      return above.length === 0 ? Number.POSITIVE_INFINITY : Math.min(...above);
    };
    const anchors = new Map(row.map((name) => [name, anchor(name)]));
    row.sort((a, b) => (anchors.get(a) ?? 0) - (anchors.get(b) ?? 0) || naturalCompare(a, b));
    row.forEach((name, i) => {
      position.set(name, i);
    });
  }

  // Each row needs its node count × (its widest box + a gap), so long names never touch.
  const rowWidth = (row: string[]): number => {
    const widestBox = Math.max(0, ...row.map((n) => nodeBoxWidth(byName.get(n)?.type ?? 'host', n)));
    return row.length * Math.max(o.nodeSpacing, widestBox + 16);
  };
  const width = Math.max(o.minWidth, ...[...rows.values()].map(rowWidth)) + o.margin + o.gutter;
  const height = Math.max(1, tiers.length - 1) * o.tierGap + 2 * o.margin;
  const y = scalePoint<number>()
    .domain(tiers)
    .range([o.margin, height - o.margin])
    .padding(tiers.length === 1 ? 0.5 : 0);

  const nodes: LayoutNode[] = [];
  const at = new Map<string, LayoutNode>();
  for (const tier of tiers) {
    const row = rows.get(tier) ?? [];
    const x = scalePoint<string>()
      .domain(row)
      .range([o.gutter, width - o.margin])
      .padding(0.5);
    for (const name of row) {
      const node = byName.get(name);
      if (!node) continue;
      const placed: LayoutNode = {
        name,
        type: node.type,
        tier,
        x: x(name) ?? width / 2,
        y: y(tier) ?? height / 2,
        width: nodeBoxWidth(node.type, name),
      };
      nodes.push(placed);
      at.set(name, placed);
    }
  }

  return {
    width,
    height,
    tiers: tiers.map((tier) => ({ tier, label: tierLabel(tier), y: y(tier) ?? 0 })),
    nodes,
    channels: layoutChannels(topology.links, at, o.channelOffset),
  };
}

/** Two strokes per cable, each `offset` px to its right; links with unplaced ends are left out. */
export function layoutChannels(
  links: readonly Topology['links'][number][],
  at: ReadonlyMap<string, Pick<LayoutNode, 'x' | 'y' | 'tier'>>,
  offset: number,
): LayoutChannel[] {
  const channels: LayoutChannel[] = [];
  for (const link of links) {
    for (const [from, to] of [
      [link.a, link.b],
      [link.b, link.a],
    ] as const) {
      const p = at.get(from.node);
      const q = at.get(to.node);
      if (!p || !q) continue;
      const dx = q.x - p.x;
      const dy = q.y - p.y;
      const len = Math.hypot(dx, dy) || 1;
      // Right-hand normal in screen coordinates (y grows downwards).
      const nx = (-dy / len) * offset;
      const ny = (dx / len) * offset;
      channels.push({
        id: channelId(from, to),
        linkId: link.id,
        kind: link.kind,
        from,
        to,
        direction: q.tier > p.tier ? 'up' : q.tier < p.tier ? 'down' : 'level',
        x1: p.x + nx,
        y1: p.y + ny,
        x2: q.x + nx,
        y2: q.y + ny,
        mx: (p.x + q.x) / 2 + nx,
        my: (p.y + q.y) / 2 + ny,
        angle: (Math.atan2(dy, dx) * 180) / Math.PI,
      });
    }
  }
  return channels;
}
