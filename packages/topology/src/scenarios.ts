import { twoTierFatTree } from './fat-tree.ts';
import type { Fabric } from './model.ts';

export interface ScenarioInfo {
  name: string;
  description: string;
  build: () => Fabric;
}

const AR_DEMO_HOSTS = ['nodeA', 'nodeB', 'nodeC', 'nodeD'] as const;

/**
 * Seed 002's lab: two edge and two core switches, one 100 Gb/s ISL per edge–core pair, nodeA and
 * nodeB on edge1, nodeC and nodeD on edge2. The LIDs are the ones that make static D-mod-K routing
 * send nodeA→nodeC and nodeB→nodeD through the same up-port of edge1 (to core2), as the seed's
 * `opareport -o route` showed: both destinations have odd LIDs. LID 4 is left unused, as a
 * host removed from a real fabric leaves its LID behind.
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
];

export function scenarioNames(): string[] {
  return scenarios.map((s) => s.name);
}

export function buildScenario(name: string): Fabric {
  const scenario = scenarios.find((s) => s.name === name);
  if (!scenario) {
    throw new Error(`unknown scenario "${name}"; known: ${scenarioNames().join(', ')}`);
  }
  return scenario.build();
}
