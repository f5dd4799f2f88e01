import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildScenario, fatTreeRouting, routeBetween, twoTierFatTree } from '../../src/index.ts';

describe('two-tier fat tree', () => {
  it('fat-tree-1152 has 1152 hosts, 72 switches and 1152 ISLs', () => {
    const fabric = buildScenario('fat-tree-1152');
    expect(fabric.nodes.filter((n) => n.type === 'host')).toHaveLength(1152);
    expect(fabric.nodes.filter((n) => n.type === 'switch')).toHaveLength(72);
    expect(fabric.links.filter((l) => l.kind === 'isl')).toHaveLength(1152);
  });

  it('rejects shapes the radix cannot hold', () => {
    expect(() =>
      twoTierFatTree({ name: 'x', radix: 8, edgeCount: 2, coreCount: 5, hostsPerEdge: 4 }),
    ).toThrow(/needs 9 ports but the radix is 8/);
  });

  it('routes every host to every other, loop-free, up then down (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 4 }),
        fc.integer({ min: 1, max: 4 }),
        fc.integer({ min: 1, max: 4 }),
        fc.integer({ min: 1, max: 2 }),
        (edgeCount, coreCount, hostsPerEdge, islsPerPair) => {
          const fabric = twoTierFatTree({
            name: 'p',
            radix: 16,
            edgeCount,
            coreCount,
            hostsPerEdge,
            islsPerPair,
          });
          const tables = fatTreeRouting(fabric);
          const hosts = fabric.nodes.filter((n) => n.type === 'host');
          for (const a of hosts) {
            for (const b of hosts) {
              if (a === b) continue;
              const route = routeBetween(fabric, tables, a.name, b.name);
              const names = route.hops.map((h) => h.node);
              expect(new Set(names).size).toBe(names.length);
              const tiers = route.hops.map((h) => fabric.nodeByName.get(h.node)?.tier ?? 0).slice(1, -1);
              const peak = tiers.indexOf(Math.max(...tiers));
              expect(tiers.slice(0, peak + 1)).toEqual([...tiers.slice(0, peak + 1)].sort((x, y) => x - y));
              expect(tiers.slice(peak)).toEqual([...tiers.slice(peak)].sort((x, y) => y - x));
            }
          }
          const again = fatTreeRouting(fabric);
          expect(again.bySwitch).toEqual(tables.bySwitch);
        },
      ),
      { numRuns: 40 },
    );
  });
});
