import { fabricGraph } from '../graph.ts';
import { channelOf, type Fabric, type FabricNode, type LinkKind } from '../model.ts';
import type { ForwardingTables } from '../routing/tables.ts';
import { traceChannels } from '../routing/trace.ts';
import { maxMinFair } from './max-min.ts';
import { patternFlows, type TrafficPattern } from './patterns.ts';

export interface LinkLoad {
  /** Link direction `node/port->node/port`. */
  link: string;
  kind: LinkKind;
  /** Flows routed over this direction. */
  flows: number;
  capacityGbps: number;
  /** Sum of the flows' expected rates over it. */
  usedGbps: number;
}

export interface IslCollision {
  link: string;
  pairs: [string, string][];
}

export interface FlowRate {
  from: string;
  to: string;
  /** Expected rate under static routing, max-min fair sharing of every link on the path. */
  rateGbps: number;
  /** Links crossed (hops − 1). */
  hops: number;
}

export interface ContentionAnalysis {
  engine: string;
  flowCount: number;
  routedCount: number;
  /** Most flows on one link direction. */
  maxLinkLoad: number;
  /** Most flows on one ISL direction (0 when no flow crosses an ISL). */
  maxIslLoad: number;
  aggregateGbps: number;
  minFlowGbps: number;
  /** Loaded link directions, most flows first. */
  links: LinkLoad[];
  /** ISL directions shared by two or more flows, with the pairs sharing them. */
  collisions: IslCollision[];
  flows: FlowRate[];
  unroutable: { from: string; to: string; reason: string }[];
}

/**
 * Which link directions each flow of a pattern crosses under the given (static) forwarding
 * tables, how many flows share each, and what rate each flow can expect when every link is
 * shared max-min fairly — the flow-level view of what the job will see before it runs.
 */
export function analyzeContention(
  fabric: Fabric,
  tables: ForwardingTables,
  pattern: TrafficPattern,
): ContentionAnalysis {
  return analyzeFlows(fabric, tables, patternFlows(fabric, pattern));
}

export function analyzeFlows(
  fabric: Fabric,
  tables: ForwardingTables,
  flows: [number, number][],
): ContentionAnalysis {
  const g = fabricGraph(fabric);
  const { nodes, links } = fabric;
  const channelCount = links.length * 2;
  const offsets: number[] = [0];
  const path: number[] = [];
  const routed: number[] = [];
  const unroutable: ContentionAnalysis['unroutable'] = [];
  for (let f = 0; f < flows.length; f++) {
    const [src, dst] = flows[f] as [number, number];
    const mark = path.length;
    const reason = traceChannels(fabric, g, tables, src, dst, path);
    if (reason !== undefined) {
      path.length = mark;
      unroutable.push({ from: (nodes[src] as FabricNode).name, to: (nodes[dst] as FabricNode).name, reason });
      continue;
    }
    routed.push(f);
    offsets.push(path.length);
  }
  const offsetArray = Int32Array.from(offsets);
  const channelArray = Int32Array.from(path);
  const capacity = new Float64Array(channelCount);
  for (const link of links) {
    capacity[link.index * 2] = link.rateGbps;
    capacity[link.index * 2 + 1] = link.rateGbps;
  }
  const paths = routed.map((_, r) =>
    channelArray.subarray(offsetArray[r] as number, offsetArray[r + 1] as number),
  );
  const rates = maxMinFair({
    paths,
    demands: new Float64Array(routed.length).fill(Number.POSITIVE_INFINITY),
    capacities: capacity,
  });

  const load = new Int32Array(channelCount);
  const used = new Float64Array(channelCount);
  for (let r = 0; r < routed.length; r++) {
    for (let i = offsetArray[r] as number; i < (offsetArray[r + 1] as number); i++) {
      const c = channelArray[i] as number;
      load[c] = (load[c] as number) + 1;
      used[c] = (used[c] as number) + (rates[r] as number);
    }
  }
  let maxLinkLoad = 0;
  let maxIslLoad = 0;
  const loaded: number[] = [];
  for (let c = 0; c < channelCount; c++) {
    const l = load[c] as number;
    if (l === 0) continue;
    loaded.push(c);
    maxLinkLoad = Math.max(maxLinkLoad, l);
    if ((links[c >> 1] as (typeof links)[number]).kind === 'isl') maxIslLoad = Math.max(maxIslLoad, l);
  }
  loaded.sort((a, b) => (load[b] as number) - (load[a] as number) || a - b);
  const name = (i: number) => (nodes[i] as FabricNode).name;

  // Pairs per shared ISL direction.
  const shared = new Map<number, [string, string][]>();
  for (const c of loaded) {
    if ((load[c] as number) >= 2 && (links[c >> 1] as (typeof links)[number]).kind === 'isl')
      shared.set(c, []);
  }
  const flowRates: FlowRate[] = [];
  let aggregate = 0;
  let minFlow = Number.POSITIVE_INFINITY;
  for (let r = 0; r < routed.length; r++) {
    const [src, dst] = flows[routed[r] as number] as [number, number];
    const pair: [string, string] = [name(src), name(dst)];
    const start = offsetArray[r] as number;
    const end = offsetArray[r + 1] as number;
    for (let i = start; i < end; i++) shared.get(channelArray[i] as number)?.push(pair);
    const rate = rates[r] as number;
    aggregate += rate;
    minFlow = Math.min(minFlow, rate);
    flowRates.push({ from: pair[0], to: pair[1], rateGbps: round(rate), hops: end - start });
  }
  return {
    engine: tables.engine,
    flowCount: flows.length,
    routedCount: routed.length,
    maxLinkLoad,
    maxIslLoad,
    aggregateGbps: round(aggregate),
    minFlowGbps: Number.isFinite(minFlow) ? round(minFlow) : 0,
    links: loaded.map((c) => {
      const channel = channelOf(fabric, c);
      return {
        link: channel.id,
        kind: channel.link.kind,
        flows: load[c] as number,
        capacityGbps: channel.link.rateGbps,
        usedGbps: round(used[c] as number),
      };
    }),
    collisions: [...shared].map(([c, pairs]) => ({ link: channelOf(fabric, c).id, pairs })),
    flows: flowRates,
    unroutable,
  };
}

function round(x: number): number {
  return Math.round(x * 1000) / 1000;
}
