import type { CompactSnapshot, Topology } from '../api/types.ts';
import { DisjointSets } from './disjointSets.ts';
import { buildFabricMatrix, naturalOrder } from './fabricMatrix.ts';
import { MAX_DRAWN_LINKS, tierLabel } from './layout.ts';

/**
 * Aggregates for fabrics without a port-level view (three tiers and more: tens of thousands of
 * links): per tier pair and direction (host → edge, edge → aggregation, …) and per pod (edge and
 * aggregation switches joined below the top tier, with their hosts). The grouping is computed
 * once per topology; each tick is one pass over the compact stream's arrays.
 */

export interface TierRowInfo {
  /** e.g. "hosts → edge". */
  label: string;
  lowTier: number;
  highTier: number;
  direction: 'up' | 'down';
}

export interface TierGroups {
  rows: TierRowInfo[];
  /** Row of each channel (-1: a link within one tier). */
  channelRow: Int32Array;
  pods: { name: string; switches: number; hosts: number }[];
  /** Pod of each channel: the pod of its lower end (-1: a top-tier-only link). */
  channelPod: Int32Array;
  /** Whether each channel is an ISL (between two switches). */
  channelIsl: Uint8Array;
}

const tierName = (tier: number): string => (tier === 2 ? 'aggregation' : tierLabel(tier));

export function buildTierGroups(topology: Topology): TierGroups {
  const nodes = new Map(topology.nodes.map((n) => [n.name, n]));
  const tierOf = (name: string): number => {
    const node = nodes.get(name);
    if (!node) throw new Error(`buildTierGroups: unknown node "${name}"`);
    return node.type === 'switch' ? node.tier : 0;
  };
  const topTier = Math.max(0, ...topology.nodes.map((n) => (n.type === 'switch' ? n.tier : 0)));
  const name = (tier: number) => (tier === topTier && tier >= 2 ? 'core' : tierName(tier));

  // Pods: union-find over switch–switch cables below the top tier.
  const switches = topology.nodes.filter((n) => n.type === 'switch');
  const below = switches.filter((n) => n.tier < topTier);
  const sets = new DisjointSets((below.length > 0 ? below : switches).map((n) => n.name));
  for (const l of topology.links) {
    if (sets.has(l.a.node) && sets.has(l.b.node)) sets.union(l.a.node, l.b.node);
  }
  const podList = sets
    .groups()
    .map((list) => list.sort(naturalOrder))
    .sort((a, b) => naturalOrder(a[0] ?? '', b[0] ?? ''));
  const podOfSwitch = new Map<string, number>();
  podList.forEach((list, p) => {
    for (const sw of list) podOfSwitch.set(sw, p);
  });
  const pods = podList.map((list, p) => ({ name: `pod ${p + 1}`, switches: list.length, hosts: 0 }));

  const rowIndex = new Map<string, number>();
  const rows: TierRowInfo[] = [];
  const rowOf = (from: number, to: number): number => {
    if (from === to) return -1;
    const key = `${from}>${to}`;
    let r = rowIndex.get(key);
    if (r === undefined) {
      r = rows.length;
      rowIndex.set(key, r);
      const low = Math.min(from, to);
      const high = Math.max(from, to);
      const lowName = low === 0 ? 'hosts' : name(low);
      rows.push({
        label: from < to ? `${lowName} → ${name(high)}` : `${name(high)} → ${lowName}`,
        lowTier: low,
        highTier: high,
        direction: from < to ? 'up' : 'down',
      });
    }
    return r;
  };

  const n = topology.links.length * 2;
  const channelRow = new Int32Array(n);
  const channelPod = new Int32Array(n);
  const channelIsl = new Uint8Array(n);
  topology.links.forEach((link, i) => {
    const ta = tierOf(link.a.node);
    const tb = tierOf(link.b.node);
    channelRow[2 * i] = rowOf(ta, tb);
    channelRow[2 * i + 1] = rowOf(tb, ta);
    const lower = ta <= tb ? link.a.node : link.b.node;
    const upper = ta <= tb ? link.b.node : link.a.node;
    const lowerIsHost = Math.min(ta, tb) === 0;
    const pod = podOfSwitch.get(lowerIsHost ? upper : lower) ?? -1;
    channelPod[2 * i] = pod;
    channelPod[2 * i + 1] = pod;
    const isl = link.kind === 'isl' ? 1 : 0;
    channelIsl[2 * i] = isl;
    channelIsl[2 * i + 1] = isl;
    const podInfo = pods[pod];
    if (lowerIsHost && podInfo) podInfo.hosts++;
  });
  const order = rows
    .map((r, i) => ({ r, i }))
    .sort(
      (x, y) =>
        x.r.lowTier - y.r.lowTier || (x.r.direction === 'up' ? -1 : 1) - (y.r.direction === 'up' ? -1 : 1),
    );
  const renumber = new Int32Array(rows.length);
  order.forEach(({ i }, k) => {
    renumber[i] = k;
  });
  for (let c = 0; c < n; c++) {
    const r = channelRow[c] ?? -1;
    if (r >= 0) channelRow[c] = renumber[r] ?? -1;
  }
  return { rows: order.map(({ r }) => r), channelRow, pods, channelPod, channelIsl };
}

const groupsOf = new WeakMap<Topology, TierGroups>();

/** buildTierGroups once per topology (the tier view and the stream's request both ask). */
export function tierGroupsOf(topology: Topology): TierGroups {
  let groups = groupsOf.get(topology);
  if (!groups) {
    groups = buildTierGroups(topology);
    groupsOf.set(topology, groups);
  }
  return groups;
}

/**
 * The groups of a fabric the dashboard shows as per-tier aggregates — too big to draw
 * (MAX_DRAWN_LINKS) and no two-tier heatmap — whose live summary the stream's worker makes with
 * each message; null for any other fabric.
 */
export function summarizedTierGroups(topology: Topology): TierGroups | null {
  if (topology.links.length <= MAX_DRAWN_LINKS) return null;
  try {
    if (buildFabricMatrix(topology).kind !== 'other') return null;
  } catch {
    return null;
  }
  return tierGroupsOf(topology);
}

export interface LoadStats {
  directions: number;
  /** Directions with a known utilization. */
  known: number;
  mean: number | null;
  max: number | null;
  /** Directions at 80 % or more. */
  hot: number;
  bytesPerSecond: number | null;
  /** Largest XmitWait share of time (congestion) among the directions; null when none is known. */
  maxWait: number | null;
  /**
   * Directions with errors counted or integrity past its threshold; null when no direction's error
   * counters are known (a store that keeps none, a past instant): unknown, not 0.
   */
  withErrors: number | null;
}

/** Utilization from which a direction counts as hot (opatop's top buckets). */
export const HOT_UTILIZATION = 0.8;

export interface PodStats {
  name: string;
  hosts: number;
  switches: number;
  isl: LoadStats;
  host: LoadStats;
}

export interface TierSummary {
  rows: (TierRowInfo & LoadStats)[];
  /** Pods, hottest ISL first (then by name). */
  pods: PodStats[];
}

// The running figures of a row or a pod's half, side by side in one Float64Array: a tick's pass over
// hundreds of thousands of channels adds into it and allocates nothing (stats objects with nullable
// fields boxed every sum: ~40 MB of garbage a tick at fat-tree-27648).
const DIRECTIONS = 0;
const KNOWN = 1;
const SUM = 2;
const MAX = 3;
const HOT = 4;
const BYTES = 5;
const BYTES_KNOWN = 6;
const WAIT = 7;
const WAIT_KNOWN = 8;
const ERRORS = 9;
const FIELDS = 10;

function plus(acc: Float64Array, at: number, by: number): void {
  acc[at] = (acc[at] as number) + by;
}

/** A value as a number: NaN when unknown (null, absent). */
function numberOf(v: number | null | undefined): number {
  return typeof v === 'number' ? v : Number.NaN;
}

/** Adds one direction's values (NaN or infinite: unknown) to the figures at `at`. */
function add(acc: Float64Array, at: number, u: number, b: number, w: number): void {
  plus(acc, at + DIRECTIONS, 1);
  // x - x is 0 for finite x only (NaN for NaN and ±Infinity).
  if (w - w === 0) {
    acc[at + WAIT] = Math.max(acc[at + WAIT] as number, w);
    acc[at + WAIT_KNOWN] = 1;
  }
  if (b - b === 0) {
    plus(acc, at + BYTES, b);
    acc[at + BYTES_KNOWN] = 1;
  }
  if (u - u !== 0) return;
  plus(acc, at + KNOWN, 1);
  plus(acc, at + SUM, u);
  acc[at + MAX] = Math.max(acc[at + MAX] as number, u);
  if (u >= HOT_UTILIZATION) plus(acc, at + HOT, 1);
}

function statsAt(acc: Float64Array, at: number, errorsKnown: boolean): LoadStats {
  const known = acc[at + KNOWN] ?? 0;
  return {
    directions: acc[at + DIRECTIONS] ?? 0,
    known,
    mean: known > 0 ? (acc[at + SUM] ?? 0) / known : null,
    max: known > 0 ? (acc[at + MAX] ?? null) : null,
    hot: acc[at + HOT] ?? 0,
    bytesPerSecond: acc[at + BYTES_KNOWN] ? (acc[at + BYTES] ?? 0) : null,
    maxWait: acc[at + WAIT_KNOWN] ? (acc[at + WAIT] ?? 0) : null,
    withErrors: errorsKnown ? (acc[at + ERRORS] ?? 0) : null,
  };
}

/**
 * The load per row and per pod (its ISL and host-link directions apart) of one tick: one pass over
 * the per-channel arrays (NaN or null: unknown), which allocates nothing per channel.
 */
export function summarizeTiers(
  groups: TierGroups,
  utilization: ArrayLike<number | null>,
  bytesPerSecond: ArrayLike<number | null>,
  /** XmitWait share per channel (the compact stream's waitFraction); absent: unknown. */
  waitFraction: ArrayLike<number | null> = [],
  /** Channels with errors (the compact stream's errors list). */
  errorChannels: Iterable<number> = [],
  /** False when no channel's error counters are known (the stream's errorsUnknown = every channel). */
  errorsKnown = true,
): TierSummary {
  const { channelRow, channelPod, channelIsl } = groups;
  const rowCount = groups.rows.length;
  const podCount = groups.pods.length;
  // Rows first, then each pod's ISL and host halves.
  const acc = new Float64Array((rowCount + 2 * podCount) * FIELDS);
  for (let at = MAX; at < acc.length; at += FIELDS) acc[at] = Number.NEGATIVE_INFINITY;
  const podAt = (pod: number, isl: number) => (rowCount + 2 * pod + (isl ? 0 : 1)) * FIELDS;
  const n = channelRow.length;
  for (let c = 0; c < n; c++) {
    const u = numberOf(utilization[c]);
    const b = numberOf(bytesPerSecond[c]);
    const w = numberOf(waitFraction[c]);
    const row = channelRow[c] as number;
    if (row >= 0 && row < rowCount) add(acc, row * FIELDS, u, b, w);
    const pod = channelPod[c] as number;
    if (pod >= 0 && pod < podCount) add(acc, podAt(pod, channelIsl[c] as number), u, b, w);
  }
  // Each channel with errors once, as many as the list names (a Set's, or the stream's distinct ones).
  const counted = new Set<number>();
  for (const c of errorChannels) {
    if (!Number.isInteger(c) || c < 0 || c >= n || counted.has(c)) continue;
    counted.add(c);
    const row = channelRow[c] as number;
    if (row >= 0 && row < rowCount) plus(acc, row * FIELDS + ERRORS, 1);
    const pod = channelPod[c] as number;
    if (pod >= 0 && pod < podCount) plus(acc, podAt(pod, channelIsl[c] as number) + ERRORS, 1);
  }
  const pods: PodStats[] = groups.pods.map((p, i) => ({
    ...p,
    isl: statsAt(acc, podAt(i, 1), errorsKnown),
    host: statsAt(acc, podAt(i, 0), errorsKnown),
  }));
  pods.sort((a, b) => (b.isl.max ?? -1) - (a.isl.max ?? -1) || naturalOrder(a.name, b.name));
  return {
    rows: groups.rows.map((info, i) => ({ ...info, ...statsAt(acc, i * FIELDS, errorsKnown) })),
    pods,
  };
}

/** The channels a compact message lists with errors. */
function errorChannels(snapshot: CompactSnapshot): number[] {
  return (snapshot.errors ?? []).map(([c]) => c);
}

/** summarizeTiers over a compact message's arrays. */
export function summarizeSnapshot(groups: TierGroups, snapshot: CompactSnapshot): TierSummary {
  return summarizeTiers(
    groups,
    snapshot.utilization,
    snapshot.bytesPerSecond,
    snapshot.waitFraction,
    errorChannels(snapshot),
    (snapshot.errorsUnknown ?? 0) < snapshot.utilization.length,
  );
}

/**
 * A compact message's tier summary: the one it carries (made in the stream's worker, off the main
 * thread) when made for groups of this shape, else made now (a past instant, a page without the
 * worker).
 */
export function tierSummaryOf(groups: TierGroups, snapshot: CompactSnapshot): TierSummary {
  const carried = snapshot.tiers;
  if (
    carried &&
    carried.rows.length === groups.rows.length &&
    carried.pods.length === groups.pods.length &&
    snapshot.utilization.length === groups.channelRow.length
  ) {
    return carried;
  }
  return summarizeSnapshot(groups, snapshot);
}
