import type { Topology } from '../api/types.ts';
import { DisjointSets } from './disjointSets.ts';
import { naturalOrder } from './fabricMatrix.ts';
import { tierLabel } from './layout.ts';

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

function emptyStats(): LoadStats {
  return {
    directions: 0,
    known: 0,
    mean: null,
    max: null,
    hot: 0,
    bytesPerSecond: null,
    maxWait: null,
    withErrors: 0,
  };
}

function add(
  stats: LoadStats,
  u: number | null | undefined,
  b: number | null | undefined,
  w: number | null | undefined,
  errors: boolean,
): void {
  stats.directions++;
  if (errors) stats.withErrors = (stats.withErrors ?? 0) + 1;
  if (typeof w === 'number' && Number.isFinite(w)) stats.maxWait = Math.max(stats.maxWait ?? 0, w);
  if (typeof b === 'number' && Number.isFinite(b)) stats.bytesPerSecond = (stats.bytesPerSecond ?? 0) + b;
  if (typeof u !== 'number' || !Number.isFinite(u)) return;
  stats.known++;
  stats.mean = (stats.mean ?? 0) + u; // a sum until finish()
  stats.max = stats.max === null ? u : Math.max(stats.max, u);
  if (u >= HOT_UTILIZATION) stats.hot++;
}

function finish(stats: LoadStats): LoadStats {
  if (stats.mean !== null && stats.known > 0) stats.mean /= stats.known;
  return stats;
}

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

export function summarizeTiers(
  groups: TierGroups,
  utilization: ArrayLike<number | null>,
  bytesPerSecond: ArrayLike<number | null>,
  /** XmitWait share per channel (the compact stream's waitFraction); absent: unknown. */
  waitFraction: ArrayLike<number | null> = [],
  /** Channels with errors (the compact stream's errors list). */
  errorChannels: ReadonlySet<number> = new Set(),
  /** False when no channel's error counters are known (the stream's errorsUnknown = every channel). */
  errorsKnown = true,
): TierSummary {
  const rows = groups.rows.map(() => emptyStats());
  const pods = groups.pods.map((p) => ({ ...p, isl: emptyStats(), host: emptyStats() }));
  const n = groups.channelRow.length;
  const anyErrors = errorChannels.size > 0;
  for (let c = 0; c < n; c++) {
    const u = utilization[c];
    const b = bytesPerSecond[c];
    const w = waitFraction[c];
    const e = anyErrors && errorChannels.has(c);
    const row = rows[groups.channelRow[c] ?? -1];
    if (row) add(row, u, b, w, e);
    const pod = pods[groups.channelPod[c] ?? -1];
    if (pod) add(groups.channelIsl[c] ? pod.isl : pod.host, u, b, w, e);
  }
  const done = (stats: LoadStats): LoadStats => {
    const finished = finish(stats);
    if (!errorsKnown) finished.withErrors = null;
    return finished;
  };
  const podStats = pods.map((p) => ({ ...p, isl: done(p.isl), host: done(p.host) }));
  podStats.sort((a, b) => (b.isl.max ?? -1) - (a.isl.max ?? -1) || naturalOrder(a.name, b.name));
  return {
    rows: groups.rows.map((info, i) => ({ ...info, ...done(rows[i] ?? emptyStats()) })),
    pods: podStats,
  };
}
