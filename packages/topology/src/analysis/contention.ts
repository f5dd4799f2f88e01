import { linkDataRateGbps } from '../model/data-rate.ts';
import { fabricGraph } from '../model/graph.ts';
import { channelOf, type Fabric, type FabricLink, type FabricNode, type LinkKind } from '../model/model.ts';
import type { ForwardingTables } from '../routing/tables.ts';
import { traceChannels } from '../routing/trace.ts';
import { adaptivePaths } from './adaptive.ts';
import { maxMinFair } from './max-min.ts';
import { patternFlows, type TrafficPattern } from './patterns.ts';

export interface LinkLoad {
  /** Link direction `node/port->node/port`. */
  link: string;
  kind: LinkKind;
  flows: number;
  /** What the direction delivers to the flows (deliverableGbps), not its quoted signalling rate. */
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
  /** Expected rate when adaptive routing spreads the flows over equal-cost paths (option `adaptive`). */
  adaptiveRateGbps?: number;
}

/** The same flows with adaptive routing: see `adaptivePaths`. */
export interface AdaptiveEstimate {
  aggregateGbps: number;
  minFlowGbps: number;
  maxIslLoad: number;
  /** ISL directions still shared by two or more flows. */
  sharedIsls: number;
}

/** Payload per wire byte of a large RDMA message (seed 002); the emulator uses it too, so Expected meets Measured. */
export const RDMA_PAYLOAD_EFFICIENCY = 0.99;

/** Gb/s of payload a link direction delivers: its data rate after encoding times RDMA_PAYLOAD_EFFICIENCY. */
export function deliverableGbps(link: FabricLink, fabric: Pick<Fabric, 'fabricType'>): number {
  return linkDataRateGbps(link, fabric.fabricType) * RDMA_PAYLOAD_EFFICIENCY;
}

/** Most flows the adaptive estimate is made for (all-to-all on 1,152 hosts is 1.3 M). */
export const MAX_ADAPTIVE_FLOWS = 200_000;

export interface AnalyzeOptions {
  /** Also estimate the rates with adaptive routing (up to MAX_ADAPTIVE_FLOWS routed flows). */
  adaptive?: boolean;
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
  /** With option `adaptive`: the totals under adaptive routing; null when there were too many flows. */
  adaptive?: AdaptiveEstimate | null;
}

/** Which link directions each flow crosses under static routing, and its max-min fair rate. */
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
  options: AnalyzeOptions = {},
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
    const deliverable = deliverableGbps(link, fabric);
    capacity[link.index * 2] = deliverable;
    capacity[link.index * 2 + 1] = deliverable;
  }
  const paths = routed.map((_, r) =>
    channelArray.subarray(offsetArray[r] as number, offsetArray[r + 1] as number),
  );
  const rates = fairRates(paths, capacity);

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
    if ((links[c >> 1] as FabricLink).kind === 'isl') maxIslLoad = Math.max(maxIslLoad, l);
  }
  loaded.sort((a, b) => (load[b] as number) - (load[a] as number) || a - b);
  const name = (i: number) => (nodes[i] as FabricNode).name;

  // Pairs per shared ISL direction.
  const shared = new Map<number, [string, string][]>();
  for (const c of loaded) {
    if ((load[c] as number) >= 2 && (links[c >> 1] as FabricLink).kind === 'isl') shared.set(c, []);
  }
  const adaptive =
    options.adaptive && routed.length <= MAX_ADAPTIVE_FLOWS
      ? adaptiveEstimate(
          fabric,
          routed.map((f) => flows[f] as [number, number]),
          paths,
          capacity,
        )
      : null;
  const flowRates: FlowRate[] = [];
  for (let r = 0; r < routed.length; r++) {
    const [src, dst] = flows[routed[r] as number] as [number, number];
    const pair: [string, string] = [name(src), name(dst)];
    const start = offsetArray[r] as number;
    const end = offsetArray[r + 1] as number;
    for (let i = start; i < end; i++) shared.get(channelArray[i] as number)?.push(pair);
    const flowRate: FlowRate = {
      from: pair[0],
      to: pair[1],
      rateGbps: round(rates[r] as number),
      hops: end - start,
    };
    if (adaptive) flowRate.adaptiveRateGbps = round(adaptive.rates[r] as number);
    flowRates.push(flowRate);
  }
  const result: ContentionAnalysis = {
    engine: tables.engine,
    flowCount: flows.length,
    routedCount: routed.length,
    maxLinkLoad,
    maxIslLoad,
    ...rateTotals(rates),
    links: loaded.map((c) => {
      const channel = channelOf(fabric, c);
      return {
        link: channel.id,
        kind: channel.link.kind,
        flows: load[c] as number,
        capacityGbps: round(capacity[c] as number),
        usedGbps: round(used[c] as number),
      };
    }),
    collisions: [...shared].map(([c, pairs]) => ({ link: channelOf(fabric, c).id, pairs })),
    flows: flowRates,
    unroutable,
  };
  if (options.adaptive) result.adaptive = adaptive ? adaptive.totals : null;
  return result;
}

function adaptiveEstimate(
  fabric: Fabric,
  flows: [number, number][],
  staticPaths: Int32Array[],
  capacity: Float64Array,
): { rates: Float64Array; totals: AdaptiveEstimate } {
  const g = fabricGraph(fabric);
  const paths = adaptivePaths(g, fabric.nodes.length, flows, staticPaths);
  const rates = fairRates(paths, capacity);
  const load = new Int32Array(capacity.length);
  for (const path of paths) for (const c of path) load[c] = (load[c] as number) + 1;
  let maxIslLoad = 0;
  let sharedIsls = 0;
  for (let c = 0; c < load.length; c++) {
    if ((fabric.links[c >> 1] as FabricLink).kind !== 'isl') continue;
    maxIslLoad = Math.max(maxIslLoad, load[c] as number);
    if ((load[c] as number) >= 2) sharedIsls++;
  }
  return { rates, totals: { ...rateTotals(rates), maxIslLoad, sharedIsls } };
}

/** Max-min fair rates of flows that take as much as their paths allow. */
function fairRates(paths: readonly Int32Array[], capacities: Float64Array): Float64Array {
  const demands = new Float64Array(paths.length).fill(Number.POSITIVE_INFINITY);
  return maxMinFair({ paths, demands, capacities });
}

/** The flows' rates together and the least of them (0 when there is none), rounded. */
function rateTotals(rates: Float64Array): { aggregateGbps: number; minFlowGbps: number } {
  let aggregate = 0;
  let min = Number.POSITIVE_INFINITY;
  for (const r of rates) {
    aggregate += r;
    min = Math.min(min, r);
  }
  return { aggregateGbps: round(aggregate), minFlowGbps: Number.isFinite(min) ? round(min) : 0 };
}

function round(x: number): number {
  return Math.round(x * 1000) / 1000;
}
