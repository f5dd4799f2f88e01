import { FabricBuilder } from '../model/builder.ts';
import { generatedGuid } from '../model/guid.ts';
import type { Fabric, FabricType } from '../model/model.ts';

export interface TwoTierFatTreeOptions {
  name: string;
  fabricType?: FabricType;
  /** Ports per switch (48 for Omni-Path 100 series edge switches). */
  radix: number;
  edgeCount: number;
  coreCount: number;
  hostsPerEdge: number;
  /** Parallel cables between each edge–core pair. */
  islsPerPair?: number;
  rateGbps?: number;
  /** Partial population: attach only this many hosts, filling edges in order (default: all). */
  hostCount?: number;
  hostNames?: (edge: number, host: number, globalIndex: number) => string;
  edgeNames?: (edge: number) => string;
  coreNames?: (core: number) => string;
  /** Fixed LIDs by node name; the rest are assigned in sweep order (hosts, then switches). */
  lids?: Readonly<Record<string, number>>;
}

/** A two-tier fat tree: edge ports 1..hostsPerEdge face hosts, the rest go up to the cores. */
export function twoTierFatTree(options: TwoTierFatTreeOptions): Fabric {
  const {
    name,
    fabricType = 'omnipath',
    radix,
    edgeCount,
    coreCount,
    hostsPerEdge,
    islsPerPair = 1,
    rateGbps = 100,
  } = options;
  const upPorts = coreCount * islsPerPair;
  if (hostsPerEdge + upPorts > radix) {
    throw new Error(`edge switch needs ${hostsPerEdge + upPorts} ports but the radix is ${radix}`);
  }
  if (edgeCount * islsPerPair > radix) {
    throw new Error(`core switch needs ${edgeCount * islsPerPair} ports but the radix is ${radix}`);
  }
  const capacity = edgeCount * hostsPerEdge;
  const hostCount = options.hostCount ?? capacity;
  if (!Number.isInteger(hostCount) || hostCount < 0 || hostCount > capacity) {
    throw new Error(
      `host count ${hostCount} is not in 0..${capacity} (${edgeCount} edges × ${hostsPerEdge} hosts)`,
    );
  }
  const hostName = options.hostNames ?? ((_e: number, _h: number, g: number) => `host${g + 1}`);
  const edgeName = options.edgeNames ?? ((e: number) => `edge${e + 1}`);
  const coreName = options.coreNames ?? ((c: number) => `core${c + 1}`);
  const lids = options.lids ?? {};

  // Hosts fill the edges in order, edge e's ports 1..hostsPerEdge.
  const hosts = Array.from({ length: hostCount }, (_, g) => {
    const edge = Math.floor(g / hostsPerEdge);
    return { name: hostName(edge, g % hostsPerEdge, g), edge, port: (g % hostsPerEdge) + 1 };
  });
  const builder = new FabricBuilder(name, fabricType);
  hosts.forEach(({ name: n }, g) => {
    builder.addNode({ name: n, type: 'host', guid: generatedGuid(0, g), portCount: 1, lid: lids[n] });
  });
  const switches = [
    ...Array.from({ length: edgeCount }, (_, e) => ({ name: edgeName(e), tier: 1 })),
    ...Array.from({ length: coreCount }, (_, c) => ({ name: coreName(c), tier: 2 })),
  ];
  switches.forEach(({ name: n, tier }, i) => {
    builder.addNode({
      name: n,
      type: 'switch',
      guid: generatedGuid(1, i),
      portCount: radix,
      tier,
      lid: lids[n],
    });
  });
  for (const h of hosts) builder.connect(h.name, 1, edgeName(h.edge), h.port, rateGbps, 'host');
  for (let e = 0; e < edgeCount; e++) {
    for (let c = 0; c < coreCount; c++) {
      for (let k = 0; k < islsPerPair; k++) {
        const edgePort = hostsPerEdge + c * islsPerPair + k + 1;
        const corePort = e * islsPerPair + k + 1;
        builder.connect(edgeName(e), edgePort, coreName(c), corePort, rateGbps, 'isl');
      }
    }
  }
  return builder.build();
}
