import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  analyzeContention,
  applyIbroute,
  buildForwardingTables,
  buildScenario,
  type Fabric,
  type ForwardingTables,
  fatTreeForRadix,
  fatTreeRouting,
  minHopRouting,
  parsePattern,
  parseTopology,
  RoutingError,
  routeBetween,
  threeTierFatTree,
  twoTierFatTree,
} from '../src/index.ts';

const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8');

/** Every host reaches every other; no node twice on a path; tiers rise then fall (up*, then down*). */
function checkAllRoutes(fabric: Fabric, tables: ForwardingTables, upDown: boolean): void {
  const hosts = fabric.nodes.filter((n) => n.type === 'host');
  for (const a of hosts) {
    for (const b of hosts) {
      if (a === b) continue;
      const route = routeBetween(fabric, tables, a.name, b.name);
      const names = route.hops.map((h) => h.node);
      expect(new Set(names).size).toBe(names.length);
      if (!upDown) continue;
      const tiers = names.slice(1, -1).map((n) => fabric.nodeByName.get(n)?.tier ?? 0);
      const peak = tiers.indexOf(Math.max(...tiers));
      for (let i = 1; i < tiers.length; i++) {
        if (i <= peak) expect(tiers[i]).toBe((tiers[i - 1] as number) + 1);
        else expect(tiers[i]).toBe((tiers[i - 1] as number) - 1);
      }
    }
  }
}

const twoTier = fc.record({
  edgeCount: fc.integer({ min: 1, max: 4 }),
  coreCount: fc.integer({ min: 1, max: 3 }),
  hostsPerEdge: fc.integer({ min: 1, max: 4 }),
  islsPerPair: fc.integer({ min: 1, max: 2 }),
  missing: fc.integer({ min: 0, max: 3 }),
});
const threeTier = fc.record({
  pods: fc.integer({ min: 1, max: 3 }),
  edgesPerPod: fc.integer({ min: 1, max: 3 }),
  aggsPerPod: fc.integer({ min: 1, max: 2 }),
  hostsPerEdge: fc.integer({ min: 1, max: 3 }),
  coresPerAgg: fc.integer({ min: 1, max: 2 }),
  islsPerPair: fc.integer({ min: 1, max: 2 }),
});

describe('fattree engine (property)', () => {
  it('two-tier trees, oversubscribed, trunked and partly populated: all reachable, loop-free, up*/down*, deterministic', () => {
    fc.assert(
      fc.property(twoTier, ({ missing, ...shape }) => {
        const hostCount = Math.max(2, shape.edgeCount * shape.hostsPerEdge - missing);
        fc.pre(hostCount <= shape.edgeCount * shape.hostsPerEdge);
        const fabric = twoTierFatTree({ name: 'p', radix: 16, ...shape, hostCount });
        const tables = fatTreeRouting(fabric);
        checkAllRoutes(fabric, tables, true);
        expect(fatTreeRouting(fabric).bySwitch).toEqual(tables.bySwitch);
      }),
      { numRuns: 40 },
    );
  });

  it('three-tier trees: all reachable, loop-free, up*/down*, deterministic', () => {
    fc.assert(
      fc.property(threeTier, (shape) => {
        fc.pre(shape.pods * shape.edgesPerPod * shape.hostsPerEdge >= 2);
        const fabric = threeTierFatTree({ name: 'p3', radix: 16, ...shape });
        const tables = fatTreeRouting(fabric);
        checkAllRoutes(fabric, tables, true);
        expect(fatTreeRouting(fabric).bySwitch).toEqual(tables.bySwitch);
      }),
      { numRuns: 30 },
    );
  });

  it('shift patterns are contention-free on full-bisection trees (D-mod-K)', () => {
    for (const fabric of [
      fatTreeForRadix({ radix: 8, tiers: 2 }),
      fatTreeForRadix({ radix: 8, tiers: 3 }),
      fatTreeForRadix({ radix: 12, tiers: 3 }),
    ]) {
      const hosts = fabric.nodes.filter((n) => n.type === 'host').length;
      const tables = fatTreeRouting(fabric);
      for (const k of [1, 2, 3, 4, 6, Math.floor(hosts / 2)]) {
        expect(analyzeContention(fabric, tables, parsePattern(`shift:${k}`)).maxLinkLoad).toBe(1);
      }
    }
  });

  it('refuses a fabric that is not a fat tree', () => {
    const fabric = parseTopology(fixture('quirks.topo'));
    expect(() => fatTreeRouting(fabric)).toThrow(RoutingError);
    expect(() => fatTreeRouting(fabric)).toThrow(/not a fat tree \(use minhop\)/);
    expect(buildForwardingTables(fabric, 'auto').engine).toBe('minhop');
  });
});

describe('minhop engine', () => {
  it('routes any graph: fat trees of both kinds, loop-free and reachable, deterministic (property)', () => {
    fc.assert(
      fc.property(threeTier, (shape) => {
        fc.pre(shape.pods * shape.edgesPerPod * shape.hostsPerEdge >= 2);
        const fabric = threeTierFatTree({ name: 'm', radix: 16, ...shape });
        const tables = minHopRouting(fabric);
        checkAllRoutes(fabric, tables, false);
        expect(minHopRouting(fabric).bySwitch).toEqual(tables.bySwitch);
      }),
      { numRuns: 20 },
    );
  });

  it('takes shortest paths and spreads destinations over equal-cost ports', () => {
    const fabric = buildScenario('fat-tree-1152');
    const tables = minHopRouting(fabric);
    const edge1 = fabric.nodeByName.get('edge1');
    const lft = tables.bySwitch[edge1?.index ?? -1] as Uint8Array;
    const used = new Map<number, number>();
    for (const host of fabric.nodes.filter((n) => n.type === 'host').slice(24)) {
      used.set(lft[host.lid] as number, (used.get(lft[host.lid] as number) ?? 0) + 1);
    }
    expect([...used.keys()].sort((a, b) => a - b)).toEqual(Array.from({ length: 24 }, (_, i) => 25 + i));
    expect(Math.max(...used.values()) - Math.min(...used.values())).toBeLessThanOrEqual(1);
    expect(routeBetween(fabric, tables, 'host1', 'host1152').hops).toHaveLength(5);
  });

  it('routes across the real-format quirks: self-loops, trunks, a CA with two ports', () => {
    const fabric = parseTopology(fixture('quirks.topo'));
    checkAllRoutes(fabric, minHopRouting(fabric), false);
  });

  it('forwards through a router between Omni-Path and Ethernet', () => {
    const fabric = buildScenario('opa-ethernet-router');
    const route = routeBetween(fabric, minHopRouting(fabric), 'opa-node', 'eth-node');
    expect(route.hops.map((h) => h.node)).toEqual([
      'opa-node',
      'opa-edge',
      'router',
      'eth-switch',
      'eth-node',
    ]);
  });
});

describe('ibroute dumps', () => {
  it('replace the computed table of the switch they name, so routes follow the subnet manager', () => {
    const fabric = buildScenario('ar-demo');
    const computed = fatTreeRouting(fabric);
    const real = applyIbroute(fabric, computed, fixture('ibroute-edge1.txt'));
    expect(real.engine).toBe('ibroute');
    expect(routeBetween(fabric, real, 'nodeA', 'nodeC').hops.map((h) => h.node)).toContain('core1');
    expect(analyzeContention(fabric, real, parsePattern('pairs:nodeA-nodeC,nodeB-nodeD')).maxLinkLoad).toBe(
      1,
    );
    expect(real.bySwitch[fabric.nodeByName.get('edge2')?.index ?? -1]).toBe(
      computed.bySwitch[fabric.nodeByName.get('edge2')?.index ?? -1],
    );
  });

  it('name the line of an entry they cannot read or a switch that is not in the fabric', () => {
    const fabric = buildScenario('ar-demo');
    const tables = fatTreeRouting(fabric);
    expect(() =>
      applyIbroute(fabric, tables, fixture('ibroute-edge1.txt').replace('0x0005 004', '0x0005 x4')),
    ).toThrow(/^ibroute: line 7: expected "0xLID PORT/);
    expect(() =>
      applyIbroute(
        fabric,
        tables,
        fixture('ibroute-edge1.txt').replace(
          'Lid 6 guid 0x0011750101000000',
          'Lid 60 guid 0x00000000000000aa',
        ),
      ),
    ).toThrow(/^ibroute: line 1: no switch with GUID 0x00000000000000aa/);
  });
});
