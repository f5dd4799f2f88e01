import { FabricBuilder } from '../model/builder.ts';
import { generatedGuid } from '../model/guid.ts';
import type { Fabric } from '../model/model.ts';
import { twoTierFatTree } from './fat-tree.ts';
import { fatTreeForRadix } from './fat-tree-radix.ts';
import { leafSpine } from './leaf-spine.ts';

export interface ScenarioInfo {
  name: string;
  description: string;
  build: () => Fabric;
  /** The routing engine a subnet manager would run on it (default: fattree). */
  routing?: 'minhop' | 'fattree';
}

const AR_DEMO_HOSTS = ['nodeA', 'nodeB', 'nodeC', 'nodeD'] as const;

/**
 * Seed 002's lab: two edges, two cores; LIDs that make D-mod-K send nodeA→nodeC and nodeB→nodeD through
 * one up-port of edge1, as the seed's `opareport -o route` showed (LID 4 left unused, as a removed host's).
 */
function arDemo(): Fabric {
  return twoTierFatTree({
    name: 'ar-demo',
    fabricType: 'omnipath',
    radix: 48,
    edgeCount: 2,
    coreCount: 2,
    hostsPerEdge: 2,
    rateGbps: 100,
    hostNames: (_e, _h, g) => AR_DEMO_HOSTS[g] as string,
    lids: { nodeA: 1, nodeB: 2, nodeC: 3, nodeD: 5, edge1: 6, edge2: 7, core1: 8, core2: 9 },
  });
}

/** Seed 004: 32 hosts on one 48-port Omni-Path switch, 2 m passive copper cables. */
function singleSwitch32(): Fabric {
  const b = new FabricBuilder('single-switch-32', 'omnipath');
  b.addNode({ name: 'switch1', type: 'switch', guid: generatedGuid(1, 0), portCount: 48, tier: 1 });
  for (let h = 1; h <= 32; h++) {
    const name = `node${String(h).padStart(2, '0')}`;
    b.addNode({ name, type: 'host', guid: generatedGuid(0, h - 1), portCount: 1 });
    b.connect(name, 1, 'switch1', h, 100, 'host', { lengthM: 2, mtu: 10236 });
  }
  return b.build();
}

/** Seed 000: IP routing from Omni-Path (MTU 10236) to 100 GbE (MTU 9000) through `router`. */
function opaEthernetRouter(): Fabric {
  const b = new FabricBuilder('opa-ethernet-router', 'omnipath');
  b.addNode({ name: 'opa-node', type: 'host', guid: generatedGuid(0, 0), portCount: 1 });
  b.addNode({ name: 'eth-node', type: 'host', guid: generatedGuid(0, 1), portCount: 1 });
  b.addNode({
    name: 'router',
    type: 'router',
    guid: generatedGuid(2, 0),
    portCount: 2,
    description: 'IP router: 100 Gb/s HFI + 100 GbE NIC',
  });
  b.addNode({ name: 'opa-edge', type: 'switch', guid: generatedGuid(1, 0), portCount: 48, tier: 1 });
  b.addNode({ name: 'eth-switch', type: 'switch', guid: generatedGuid(1, 1), portCount: 32, tier: 1 });
  const opa = { fabricType: 'omnipath', mtu: 10236 } as const;
  const eth = { fabricType: 'ethernet', mtu: 9000 } as const;
  b.connect('opa-node', 1, 'opa-edge', 1, 100, 'host', opa);
  b.connect('router', 1, 'opa-edge', 2, 100, 'host', opa);
  b.connect('router', 2, 'eth-switch', 1, 100, 'host', eth);
  b.connect('eth-node', 1, 'eth-switch', 2, 100, 'host', eth);
  return b.build();
}

/** Seed 003: Lustre over 40 GbE iWARP beside the same over FDR InfiniBand, the two not joined. */
function lustreStorage(): Fabric {
  const b = new FabricBuilder('lustre-storage', 'ethernet');
  b.addNode({ name: 'eth-switch', type: 'switch', guid: generatedGuid(1, 0), portCount: 32, tier: 1 });
  b.addNode({ name: 'ib-switch', type: 'switch', guid: generatedGuid(1, 1), portCount: 36, tier: 1 });
  const names = ['lustre-server', 'client1', 'client2', 'client3', 'client4'];
  let n = 0;
  for (const [suffix, sw, rate, opts] of [
    ['eth', 'eth-switch', 40, { fabricType: 'ethernet', mtu: 1500 }],
    ['ib', 'ib-switch', 56, { fabricType: 'infiniband', widthSpeed: '4xFDR', mtu: 4096 }],
  ] as const) {
    names.forEach((host, i) => {
      const name = `${host}-${suffix}`;
      b.addNode({ name, type: 'host', guid: generatedGuid(0, n++), portCount: 1 });
      b.connect(name, 1, sw, i + 1, rate, 'host', opts);
    });
  }
  return b.build();
}

export const scenarios: readonly ScenarioInfo[] = [
  {
    name: 'ar-demo',
    description: 'Seed 002: 2 edge + 2 core switches, 4 hosts; nodeA→nodeC and nodeB→nodeD share an ISL',
    build: arDemo,
  },
  {
    name: 'fat-tree-1152',
    description: 'Seed 002: 48-port two-tier fat tree, 48 edge × 24 hosts + 24 core, full bisection',
    build: () =>
      twoTierFatTree({ name: 'fat-tree-1152', radix: 48, edgeCount: 48, coreCount: 24, hostsPerEdge: 24 }),
  },
  {
    name: 'fat-tree-6912',
    description: '48-port three-tier fat tree, 12 of 48 pods populated: 6,912 hosts, 1,152 switches',
    build: () => fatTreeForRadix({ name: 'fat-tree-6912', radix: 48, tiers: 3, hostCount: 6912 }),
  },
  {
    name: 'fat-tree-27648',
    description: '48-port three-tier fat tree: 48 pods × (24 edge + 24 aggregation) + 576 core, 27,648 hosts',
    build: () => fatTreeForRadix({ name: 'fat-tree-27648', radix: 48, tiers: 3 }),
  },
  {
    name: 'single-switch-32',
    description: 'Seed 004: 32 hosts on one 48-port Omni-Path switch, 2 m copper cables',
    build: singleSwitch32,
    routing: 'minhop',
  },
  {
    name: 'opa-ethernet-router',
    description: 'Seed 000: opa-node (Omni-Path) and eth-node (100 GbE) joined by an IP router host',
    build: opaEthernetRouter,
    routing: 'minhop',
  },
  {
    name: 'lustre-storage',
    description: 'Seed 003: Lustre server + 4 clients on 40 GbE, and the same on 56 Gb/s FDR InfiniBand',
    build: lustreStorage,
    routing: 'minhop',
  },
  {
    name: 'roce-leafspine',
    description: 'RoCE leaf–spine: 4 spines, 8 leaves × 16 hosts, 400 GbE, MTU 9000; ECMP over the spines',
    build: () =>
      leafSpine({
        name: 'roce-leafspine',
        spineCount: 4,
        leafCount: 8,
        hostsPerLeaf: 16,
        radix: 32,
        rateGbps: 400,
        mtu: 9000,
      }),
  },
];

export function scenarioNames(): string[] {
  return scenarios.map((s) => s.name);
}

export function scenarioInfo(name: string): ScenarioInfo {
  const scenario = scenarios.find((s) => s.name === name);
  if (!scenario) {
    throw new Error(`unknown scenario "${name}"; known: ${scenarioNames().join(', ')}`);
  }
  return scenario;
}

export function buildScenario(name: string): Fabric {
  return scenarioInfo(name).build();
}
