import type { Fabric, FabricType } from '../model/model.ts';
import { twoTierFatTree } from './fat-tree.ts';
import { threeTierFatTree } from './fat-tree-3.ts';

export interface FatTreeForRadixOptions {
  name?: string;
  fabricType?: FabricType;
  radix: number;
  tiers: 2 | 3;
  /** Hosts per edge switch ÷ edge up-links: 1 is full bisection, 2 is 2:1 oversubscribed. */
  oversubscription?: number;
  /** Parallel cables per switch pair (trunked ISLs). */
  islsPerPair?: number;
  /** Partial population: build only as many pods (or edges) as these hosts need. */
  hostCount?: number;
  rateGbps?: number;
}

/** The largest two- or three-tier fat tree a radix builds, optionally oversubscribed, trunked or partial. */
export function fatTreeForRadix(options: FatTreeForRadixOptions): Fabric {
  const {
    radix,
    tiers,
    oversubscription = 1,
    islsPerPair = 1,
    rateGbps = 100,
    fabricType = 'omnipath',
  } = options;
  if (!Number.isInteger(radix) || radix < 2 || radix > 254)
    throw new Error(`radix ${radix} is not in 2..254`);
  if (!(oversubscription > 0)) throw new Error(`oversubscription must be positive, got ${oversubscription}`);
  const hostsPerEdge = Math.max(1, Math.floor((radix * oversubscription) / (oversubscription + 1)));
  const ups = Math.floor((radix - hostsPerEdge) / islsPerPair);
  if (ups < 1) throw new Error(`radix ${radix} leaves no up-link for ${islsPerPair} trunked ISLs`);
  const name = options.name ?? `fat-tree-r${radix}-t${tiers}`;
  const base = { name, fabricType, radix, islsPerPair, rateGbps, hostsPerEdge };
  if (tiers === 2) {
    const maxEdges = Math.floor(radix / islsPerPair);
    const edgeCount =
      options.hostCount === undefined ? maxEdges : Math.max(1, Math.ceil(options.hostCount / hostsPerEdge));
    if (edgeCount > maxEdges)
      throw new Error(`${options.hostCount} hosts need ${edgeCount} edges; at most ${maxEdges}`);
    return twoTierFatTree({ ...base, edgeCount, coreCount: ups, ...hostCountOf(options) });
  }
  const half = Math.floor(radix / 2);
  const edgesPerPod = Math.floor(half / islsPerPair);
  const coresPerAgg = Math.floor((radix - half) / islsPerPair);
  const maxPods = Math.floor(radix / islsPerPair);
  const perPod = edgesPerPod * hostsPerEdge;
  const pods = options.hostCount === undefined ? maxPods : Math.max(1, Math.ceil(options.hostCount / perPod));
  if (pods > maxPods) throw new Error(`${options.hostCount} hosts need ${pods} pods; at most ${maxPods}`);
  return threeTierFatTree({
    ...base,
    pods,
    edgesPerPod,
    aggsPerPod: ups,
    coresPerAgg,
    ...hostCountOf(options),
  });
}

function hostCountOf(options: FatTreeForRadixOptions): { hostCount?: number } {
  return options.hostCount === undefined ? {} : { hostCount: options.hostCount };
}
