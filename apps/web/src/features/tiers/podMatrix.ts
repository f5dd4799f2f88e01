import type { Topology } from '@fabscope/contracts';
import { naturalCompare } from '@fabscope/contracts/names';
import { utilizationColor } from '../../lib/colors.ts';
import { DisjointSets } from '../../lib/disjointSets.ts';
import { formatPercent } from '../../lib/format.ts';
import { isCongested } from '../../lib/linkHealth.ts';

/** A pod as an edge × aggregation matrix and a switch as its ports, computed once per topology. */

export interface PodCell {
  /** Channels edge → aggregation (several when trunked). */
  up: number[];
  /** Channels aggregation → edge. */
  down: number[];
}

export interface Pod {
  name: string;
  edges: string[];
  aggregations: string[];
  /** Row-major, edges × aggregations; null where the two are not cabled. */
  cells: (PodCell | null)[];
}

export interface SwitchPort {
  port: number;
  /** The node and port at the other end. */
  peer: string;
  peerPort: number;
  /** Channel leaving the switch through this port, and the one arriving. */
  out: number;
  in: number;
}

/** Pods: edge (tier 1) and aggregation (tier 2) switches joined by cables, in name order. */
export function buildPods(topology: Topology): Pod[] {
  const tier = new Map(topology.nodes.filter((n) => n.type === 'switch').map((n) => [n.name, n.tier]));
  const sets = new DisjointSets([...tier].filter(([, t]) => t === 1 || t === 2).map(([name]) => name));
  const pairs: { edge: string; agg: string; up: number; down: number }[] = [];
  topology.links.forEach((l, i) => {
    const ta = tier.get(l.a.node);
    const tb = tier.get(l.b.node);
    if (!((ta === 1 && tb === 2) || (ta === 2 && tb === 1))) return;
    sets.union(l.a.node, l.b.node);
    // Channel 2i leaves a; up is the one leaving the edge.
    const aIsEdge = ta === 1;
    pairs.push({
      edge: aIsEdge ? l.a.node : l.b.node,
      agg: aIsEdge ? l.b.node : l.a.node,
      up: aIsEdge ? 2 * i : 2 * i + 1,
      down: aIsEdge ? 2 * i + 1 : 2 * i,
    });
  });
  const groups = sets.groups().map((members) => ({
    edges: new Set(members.filter((name) => tier.get(name) === 1)),
    aggs: new Set(members.filter((name) => tier.get(name) !== 1)),
  }));
  const pods = groups
    .filter((g) => g.edges.size > 0 && g.aggs.size > 0)
    .map((g) => ({
      edges: [...g.edges].sort(naturalCompare),
      aggregations: [...g.aggs].sort(naturalCompare),
    }))
    // Ordered as the per-pod summary numbers them (lib/tierGroups.ts): by first switch name.
    .sort((a, b) => naturalCompare(firstOf(a), firstOf(b)));
  const podOf = new Map<string, number>();
  pods.forEach((p, k) => {
    for (const e of p.edges) podOf.set(e, k);
  });
  const result: Pod[] = pods.map((p, k) => ({
    name: `pod ${k + 1}`,
    edges: p.edges,
    aggregations: p.aggregations,
    cells: new Array<PodCell | null>(p.edges.length * p.aggregations.length).fill(null),
  }));
  const rowOf = result.map((p) => new Map(p.edges.map((e, r) => [e, r])));
  const colOf = result.map((p) => new Map(p.aggregations.map((a, c) => [a, c])));
  for (const pair of pairs) {
    const k = podOf.get(pair.edge);
    if (k === undefined) continue;
    const pod = result[k];
    const r = rowOf[k]?.get(pair.edge);
    const c = colOf[k]?.get(pair.agg);
    if (!pod || r === undefined || c === undefined) continue;
    const at = r * pod.aggregations.length + c;
    const cell = pod.cells[at] ?? { up: [], down: [] };
    cell.up.push(pair.up);
    cell.down.push(pair.down);
    pod.cells[at] = cell;
  }
  return result;
}

const firstOf = (p: { edges: string[]; aggregations: string[] }): string =>
  [...p.edges, ...p.aggregations].sort(naturalCompare)[0] ?? '';

/** Every cabled port of a switch, in port order, with the channels out of and into it. */
export function switchPorts(topology: Topology, name: string): SwitchPort[] {
  const ports: SwitchPort[] = [];
  topology.links.forEach((l, i) => {
    if (l.a.node === name)
      ports.push({ port: l.a.port, peer: l.b.node, peerPort: l.b.port, out: 2 * i, in: 2 * i + 1 });
    if (l.b.node === name)
      ports.push({ port: l.b.port, peer: l.a.node, peerPort: l.a.port, out: 2 * i + 1, in: 2 * i });
  });
  return ports.sort((a, b) => a.port - b.port);
}

/** The busiest of some channels (trunks show their busiest cable); null when none is known. */
export function busiest(channels: readonly number[], values: ArrayLike<number | null>): number | null {
  let max: number | null = null;
  // Indexed, not for…of: run on every cell of a pod on each message, an iterator apiece adds up.
  for (let i = 0; i < channels.length; i++) {
    const v = values[channels[i] as number];
    // NaN (ChannelValues) is unknown, as null is.
    if (typeof v === 'number' && !Number.isNaN(v) && (max === null || v > max)) max = v;
  }
  return max;
}

/** What one cell of the pod matrix shows: its name with both directions' values, colours, ring. */
export interface PodCellLook {
  label: string;
  upColor: string;
  downColor: string;
  /** Either direction waiting for credit (XmitWait past the congestion limit). */
  waiting: boolean;
}

/** What one cell of the pod matrix stands for at an instant: its busiest cable each way. */
export interface PodCellValues {
  /** Utilization edge → aggregation (0..1), null when unknown. */
  up: number | null;
  down: number | null;
  /** The larger wait share (XmitWait) of either direction's busiest-waiting cable, null when unknown. */
  wait: number | null;
  waiting: boolean;
}

/** A cell's values for one instant's per-channel arrays (NaN or missing: unknown). */
export function podCellValues(
  cell: PodCell,
  utilization: ArrayLike<number | null>,
  waitFraction: ArrayLike<number | null>,
): PodCellValues {
  const upWait = busiest(cell.up, waitFraction);
  const downWait = busiest(cell.down, waitFraction);
  return {
    up: busiest(cell.up, utilization),
    down: busiest(cell.down, utilization),
    wait: upWait === null ? downWait : downWait === null ? upWait : Math.max(upWait, downWait),
    waiting: isCongested(upWait) || isCongested(downWait),
  };
}

/** Whether a cell's values read the same (its 576 cells compared on every message: no lists made). */
export function samePodCell(a: PodCellValues, b: PodCellValues): boolean {
  return (
    Object.is(a.up, b.up) && Object.is(a.down, b.down) && Object.is(a.wait, b.wait) && a.waiting === b.waiting
  );
}

/** The look of the cell between `edge` and `aggregation` (unknown: drawn grey and written —). */
export function podCellLook(
  { up, down, wait, waiting }: PodCellValues,
  edge: string,
  aggregation: string,
): PodCellLook {
  return {
    label: `${edge} → ${aggregation} ${formatPercent(up)}, ${aggregation} → ${edge} ${formatPercent(down)}, wait ${formatPercent(wait)}${
      waiting ? ', waiting for credit' : ''
    }`,
    upColor: utilizationColor(up),
    downColor: utilizationColor(down),
    waiting,
  };
}

/** `?pod=N` (1-based, as pods are named) → the pod's index; absent or not a count: the first. */
export function parsePod(raw: string | null): number {
  const n = raw !== null && /^\d{1,6}$/.test(raw) ? Number(raw) : 0;
  return n >= 1 ? n - 1 : 0;
}

export function serializePod(pod: number): string | null {
  return pod === 0 ? null : String(pod + 1);
}
