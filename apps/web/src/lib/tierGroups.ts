import type { Topology } from '@fabscope/contracts';
import { naturalCompare } from '@fabscope/contracts/names';
import type { TierRowInfo } from '../api/types.ts';
import { DisjointSets } from './disjointSets.ts';
import { buildFabricMatrix } from './fabricMatrix.ts';
import { MAX_DRAWN_LINKS, tierLabel } from './layout.ts';
import { onePer } from './onePer.ts';

/** Each channel's tier pair, direction and pod, for fabrics summarized per tier; once per topology. */

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
    .map((list) => list.sort(naturalCompare))
    .sort((a, b) => naturalCompare(a[0] ?? '', b[0] ?? ''));
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

/** buildTierGroups once per topology (the tier view and the stream's request both ask). */
export const tierGroupsOf = onePer(buildTierGroups);

/** The groups of a fabric shown as per-tier aggregates (too big to draw, not two-tier); else null. */
export function summarizedTierGroups(topology: Topology): TierGroups | null {
  if (topology.links.length <= MAX_DRAWN_LINKS) return null;
  try {
    if (buildFabricMatrix(topology).kind !== 'other') return null;
  } catch {
    return null;
  }
  return tierGroupsOf(topology);
}
