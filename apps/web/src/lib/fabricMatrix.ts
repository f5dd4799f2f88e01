import type { Topology, TopologyNode } from '../api/types.ts';

/**
 * Groups the channels of a two-tier fat tree for the heatmap: an ISL matrix (rows = edge
 * switches, tier 1; columns = core switches, tier 2) and a host-port strip (rows = edge switches,
 * columns = host-facing edge ports). Channel c of the compact stream is link ⌊c/2⌋ of the
 * topology, a→b when c is even and b→a when odd; cells hold channel indices, not values, so the
 * grouping is computed once per topology and each tick is a pass over arrays.
 */

/** One edge–core pair: every trunked cable between them, in both directions. */
export interface IslCell {
  edge: string;
  core: string;
  /** Channels edge → core, one per trunk (port order). */
  up: number[];
  /** Channels core → edge, one per trunk, in the same order as `up`. */
  down: number[];
  edgePorts: number[];
  corePorts: number[];
}

/** One host-facing edge port. */
export interface HostPortCell {
  edge: string;
  edgePort: number;
  host: string;
  hostPort: number;
  /** Channel host → edge (the host transmits). */
  up: number;
  /** Channel edge → host (the host receives). */
  down: number;
}

export interface TwoTierMatrix {
  edges: string[];
  cores: string[];
  /** Host-facing edge port numbers, the strip's columns (union over all edge switches). */
  hostPorts: number[];
  /** Row-major edges × cores; null where an edge and a core are not cabled. */
  isl: (IslCell | null)[];
  /** Row-major edges × hostPorts; null where the port has no host. */
  hosts: (HostPortCell | null)[];
  channelCount: number;
  /** Most trunked cables in one ISL cell (1 without trunking). */
  maxTrunk: number;
}

export type FabricMatrix = { kind: 'two-tier'; matrix: TwoTierMatrix } | { kind: 'other'; reason: string };

export const naturalOrder = (a: string, b: string): number => a.localeCompare(b, 'en', { numeric: true });

const isSwitch = (node: TopologyNode): boolean => node.type === 'switch';

/**
 * The two-tier matrix of a fabric, or why the fabric is not two-tier (switches above tier 2,
 * ISLs within a tier, hosts cabled to a core switch). Throws on links naming unknown nodes.
 */
export function buildFabricMatrix(topology: Topology): FabricMatrix {
  const byName = new Map<string, TopologyNode>();
  for (const node of topology.nodes) byName.set(node.name, node);
  const topTier = Math.max(0, ...topology.nodes.filter(isSwitch).map((n) => n.tier));
  if (topTier > 2) return { kind: 'other', reason: `the fabric has ${topTier} switch tiers` };

  const edges = topology.nodes
    .filter((n) => isSwitch(n) && n.tier === 1)
    .map((n) => n.name)
    .sort(naturalOrder);
  const cores = topology.nodes
    .filter((n) => isSwitch(n) && n.tier === 2)
    .map((n) => n.name)
    .sort(naturalOrder);
  const edgeRow = new Map(edges.map((name, i) => [name, i]));
  const coreCol = new Map(cores.map((name, i) => [name, i]));

  const isl = new Map<number, IslCell>();
  const hostPorts = new Map<string, HostPortCell>();
  const portSet = new Set<number>();
  for (const [i, link] of topology.links.entries()) {
    const a = byName.get(link.a.node);
    const b = byName.get(link.b.node);
    if (!a || !b) {
      const missing = a ? link.b.node : link.a.node;
      throw new Error(`buildFabricMatrix: link "${link.id}" references unknown node "${missing}"`);
    }
    const aUp = 2 * i; // a → b
    const bUp = 2 * i + 1; // b → a
    if (isSwitch(a) && isSwitch(b)) {
      if (a.tier === b.tier) return { kind: 'other', reason: `${a.name} and ${b.name} share tier ${a.tier}` };
      const aIsEdge = a.tier < b.tier;
      const [edge, core] = aIsEdge ? [link.a, link.b] : [link.b, link.a];
      const row = edgeRow.get(edge.node);
      const col = coreCol.get(core.node);
      if (row === undefined || col === undefined) {
        return { kind: 'other', reason: `${link.id} is not an edge–core cable` };
      }
      const key = row * cores.length + col;
      const cell = isl.get(key) ?? {
        edge: edge.node,
        core: core.node,
        up: [],
        down: [],
        edgePorts: [],
        corePorts: [],
      };
      cell.up.push(aIsEdge ? aUp : bUp);
      cell.down.push(aIsEdge ? bUp : aUp);
      cell.edgePorts.push(edge.port);
      cell.corePorts.push(core.port);
      isl.set(key, cell);
      continue;
    }
    if (isSwitch(a) === isSwitch(b)) return { kind: 'other', reason: `${link.id} joins two hosts` };
    const aIsHost = !isSwitch(a);
    const [host, sw] = aIsHost ? [link.a, link.b] : [link.b, link.a];
    if (!edgeRow.has(sw.node)) return { kind: 'other', reason: `host ${host.node} is cabled to ${sw.node}` };
    portSet.add(sw.port);
    hostPorts.set(`${sw.node}/${sw.port}`, {
      edge: sw.node,
      edgePort: sw.port,
      host: host.node,
      hostPort: host.port,
      up: aIsHost ? aUp : bUp,
      down: aIsHost ? bUp : aUp,
    });
  }

  const ports = [...portSet].sort((x, y) => x - y);
  let maxTrunk = 1;
  const islCells: (IslCell | null)[] = new Array(edges.length * cores.length).fill(null);
  for (const [key, cell] of isl) {
    // Trunks in edge port order, so a tooltip lists them as the switch does.
    const order = cell.edgePorts
      .map((_, k) => k)
      .sort((x, y) => (cell.edgePorts[x] ?? 0) - (cell.edgePorts[y] ?? 0));
    const pick = (list: number[]) => order.map((k) => list[k] ?? -1);
    islCells[key] = {
      ...cell,
      up: pick(cell.up),
      down: pick(cell.down),
      edgePorts: pick(cell.edgePorts),
      corePorts: pick(cell.corePorts),
    };
    maxTrunk = Math.max(maxTrunk, cell.up.length);
  }
  const hosts: (HostPortCell | null)[] = [];
  for (const edge of edges) {
    for (const port of ports) hosts.push(hostPorts.get(`${edge}/${port}`) ?? null);
  }
  return {
    kind: 'two-tier',
    matrix: {
      edges,
      cores,
      hostPorts: ports,
      isl: islCells,
      hosts,
      channelCount: topology.links.length * 2,
      maxTrunk,
    },
  };
}

/** Aggregate of one direction of a cell over its trunks. */
export interface DirectionValue {
  /** Highest utilization among known trunks (the colour), null when none is known. */
  max: number | null;
  mean: number | null;
  /** Sum of known bytes/s over the trunks. */
  bytesPerSecond: number | null;
  /** Trunks in the cell, and how many of them are unknown (stale). */
  count: number;
  unknown: number;
}

export function directionValue(
  channels: readonly number[],
  utilization: ArrayLike<number | null>,
  bytesPerSecond: ArrayLike<number | null>,
): DirectionValue {
  let max: number | null = null;
  let sum = 0;
  let known = 0;
  let bytes: number | null = null;
  for (const c of channels) {
    const u = utilization[c];
    if (typeof u === 'number' && Number.isFinite(u)) {
      max = max === null ? u : Math.max(max, u);
      sum += u;
      known++;
    }
    const b = bytesPerSecond[c];
    if (typeof b === 'number' && Number.isFinite(b)) bytes = (bytes ?? 0) + b;
  }
  return {
    max,
    mean: known > 0 ? sum / known : null,
    bytesPerSecond: bytes,
    count: channels.length,
    unknown: channels.length - known,
  };
}

/**
 * Highest finite utilization among `channels`, or null when none is known: directionValue's `max`
 * without its object (a tick asks it of every cell half).
 */
export function maxUtilization(
  channels: readonly number[],
  utilization: ArrayLike<number | null>,
): number | null {
  let max: number | null = null;
  for (const c of channels) {
    const u = utilization[c];
    if (typeof u === 'number' && Number.isFinite(u) && (max === null || u > max)) max = u;
  }
  return max;
}

/** A block's cells as lists of channels per half, row-major; null for an empty cell. */
export interface BlockChannels {
  up: (readonly number[] | null)[];
  down: (readonly number[] | null)[];
}

const channelLists = new WeakMap<TwoTierMatrix, Record<'isl' | 'host', BlockChannels>>();

/**
 * Every cell's up- and down-channels, per block, as cellChannels gives them, made once per matrix:
 * a tick's pass over the cells (the canvas, the hottest cells) allocates nothing per cell.
 */
export function blockChannels(matrix: TwoTierMatrix, block: Block): BlockChannels {
  let lists = channelLists.get(matrix);
  if (!lists) {
    lists = {
      isl: { up: matrix.isl.map((c) => c?.up ?? null), down: matrix.isl.map((c) => c?.down ?? null) },
      host: {
        up: matrix.hosts.map((c) => (c ? [c.up] : null)),
        down: matrix.hosts.map((c) => (c ? [c.down] : null)),
      },
    };
    channelLists.set(matrix, lists);
  }
  return lists[block];
}

export type Block = 'isl' | 'host';
export type Half = 'up' | 'down';

export interface HotCell {
  block: Block;
  row: number;
  col: number;
  half: Half;
  utilization: number;
  /** e.g. "edge1 → core2" or "host25 → edge2/1". */
  label: string;
}

/** Up- and down-channels of a cell of either block, or null for an empty cell. */
export function cellChannels(
  matrix: TwoTierMatrix,
  block: Block,
  row: number,
  col: number,
): { up: number[]; down: number[] } | null {
  if (block === 'isl') {
    const cell = matrix.isl[row * matrix.cores.length + col];
    return cell ? { up: cell.up, down: cell.down } : null;
  }
  const cell = matrix.hosts[row * matrix.hostPorts.length + col];
  return cell ? { up: [cell.up], down: [cell.down] } : null;
}

/** Who sends in one half of a cell, "from → to", as an administrator names it. */
export function directionLabel(
  matrix: TwoTierMatrix,
  block: Block,
  row: number,
  col: number,
  half: Half,
): string {
  if (block === 'isl') {
    const cell = matrix.isl[row * matrix.cores.length + col];
    if (!cell) return '';
    return half === 'up' ? `${cell.edge} → ${cell.core}` : `${cell.core} → ${cell.edge}`;
  }
  const cell = matrix.hosts[row * matrix.hostPorts.length + col];
  if (!cell) return '';
  return half === 'up'
    ? `${cell.host} → ${cell.edge}/${cell.edgePort}`
    : `${cell.edge}/${cell.edgePort} → ${cell.host}`;
}

/**
 * The `limit` hottest cell halves (by max utilization over trunks), hottest first, ISLs before
 * host ports on ties; for the screen-reader summary of the heatmap.
 */
export function hottestCells(
  matrix: TwoTierMatrix,
  utilization: ArrayLike<number | null>,
  limit: number,
): HotCell[] {
  // The `limit` hottest so far, hottest first; a later cell of the same utilization goes after
  // (ISLs are visited before host ports). Labelled once chosen: a tick visits every cell.
  const found: Omit<HotCell, 'label'>[] = [];
  const keep = Math.max(0, limit);
  const blocks: [Block, number][] = [
    ['isl', matrix.cores.length],
    ['host', matrix.hostPorts.length],
  ];
  for (const [block, cols] of blocks) {
    const lists = blockChannels(matrix, block);
    for (let row = 0; row < matrix.edges.length; row++) {
      for (let col = 0; col < cols; col++) {
        for (const half of ['up', 'down'] as const) {
          const channels = lists[half][row * cols + col];
          if (!channels) continue;
          const max = maxUtilization(channels, utilization);
          if (max === null || max <= 0) continue;
          if (found.length === keep && (found[keep - 1]?.utilization ?? Number.POSITIVE_INFINITY) >= max)
            continue;
          let at = found.length;
          while (at > 0 && (found[at - 1]?.utilization ?? 0) < max) at--;
          found.splice(at, 0, { block, row, col, half, utilization: max });
          if (found.length > keep) found.pop();
        }
      }
    }
  }
  return found.map((c) => ({ ...c, label: directionLabel(matrix, c.block, c.row, c.col, c.half) }));
}
