import { FabricBuilder } from '../model/builder.ts';
import { generatedGuid } from '../model/guid.ts';
import type { Fabric, FabricType } from '../model/model.ts';

export interface ThreeTierFatTreeOptions {
  name: string;
  fabricType?: FabricType;
  radix: number;
  /** Pods: groups of edge and aggregation switches fully cabled to each other. */
  pods: number;
  edgesPerPod: number;
  aggsPerPod: number;
  hostsPerEdge: number;
  /** Core switches above each aggregation position: core group a serves aggregation switch a of every pod. */
  coresPerAgg: number;
  /** Parallel cables between each cabled switch pair. */
  islsPerPair?: number;
  rateGbps?: number;
  /** Partial population: attach only this many hosts, filling edges in order (default: all). */
  hostCount?: number;
}

/**
 * A three-tier fat tree (edge, aggregation, core); hosts come first so their LIDs are 1..N, which makes
 * D-mod-K routing contention-free for shifts.
 */
export function threeTierFatTree(options: ThreeTierFatTreeOptions): Fabric {
  const {
    name,
    fabricType = 'omnipath',
    radix,
    pods,
    edgesPerPod,
    aggsPerPod,
    hostsPerEdge,
    coresPerAgg,
    islsPerPair: t = 1,
    rateGbps = 100,
  } = options;
  const need = (what: string, ports: number) => {
    if (ports > radix) throw new Error(`${what} switch needs ${ports} ports but the radix is ${radix}`);
  };
  need('edge', hostsPerEdge + aggsPerPod * t);
  need('aggregation', (edgesPerPod + coresPerAgg) * t);
  need('core', pods * t);
  const capacity = pods * edgesPerPod * hostsPerEdge;
  const hostCount = options.hostCount ?? capacity;
  if (!Number.isInteger(hostCount) || hostCount < 0 || hostCount > capacity) {
    throw new Error(`host count ${hostCount} is not in 0..${capacity}`);
  }
  const edges = pods * edgesPerPod;
  const aggs = pods * aggsPerPod;
  const cores = aggsPerPod * coresPerAgg;
  const builder = new FabricBuilder(name, fabricType);
  for (let h = 0; h < hostCount; h++) {
    builder.addNode({ name: `host${h + 1}`, type: 'host', guid: generatedGuid(0, h), portCount: 1 });
  }
  let sw = 0;
  for (const [prefix, count, tier] of [
    ['edge', edges, 1],
    ['agg', aggs, 2],
    ['core', cores, 3],
  ] as const) {
    for (let i = 0; i < count; i++) {
      builder.addNode({
        name: `${prefix}${i + 1}`,
        type: 'switch',
        guid: generatedGuid(1, sw++),
        portCount: radix,
        tier,
      });
    }
  }
  for (let h = 0; h < hostCount; h++) {
    const edge = Math.floor(h / hostsPerEdge);
    builder.connect(`host${h + 1}`, 1, `edge${edge + 1}`, (h % hostsPerEdge) + 1, rateGbps, 'host');
  }
  for (let p = 0; p < pods; p++) {
    for (let e = 0; e < edgesPerPod; e++) {
      for (let a = 0; a < aggsPerPod; a++) {
        const edge = `edge${p * edgesPerPod + e + 1}`;
        const agg = `agg${p * aggsPerPod + a + 1}`;
        for (let k = 0; k < t; k++) {
          builder.connect(edge, hostsPerEdge + a * t + k + 1, agg, e * t + k + 1, rateGbps, 'isl');
        }
      }
    }
    for (let a = 0; a < aggsPerPod; a++) {
      for (let j = 0; j < coresPerAgg; j++) {
        for (let k = 0; k < t; k++) {
          const agg = `agg${p * aggsPerPod + a + 1}`;
          const core = `core${a * coresPerAgg + j + 1}`;
          builder.connect(agg, edgesPerPod * t + j * t + k + 1, core, p * t + k + 1, rateGbps, 'isl');
        }
      }
    }
  }
  return builder.build();
}
