import { describe, expect, it } from 'vitest';
import { buildScenario, fatTreeRouting, routeBetween } from '../src/index.ts';

describe('ar-demo scenario', () => {
  const fabric = buildScenario('ar-demo');
  const tables = fatTreeRouting(fabric);

  it('has the seed lab shape: 4 switches, 4 hosts, 4 ISLs of 100 Gb/s', () => {
    const switches = fabric.nodes.filter((n) => n.type === 'switch').map((n) => n.name);
    const hosts = fabric.nodes.filter((n) => n.type === 'host').map((n) => n.name);
    expect(switches.sort()).toEqual(['core1', 'core2', 'edge1', 'edge2']);
    expect(hosts.sort()).toEqual(['nodeA', 'nodeB', 'nodeC', 'nodeD']);
    const isls = fabric.links.filter((l) => l.kind === 'isl');
    expect(isls).toHaveLength(4);
    expect(isls.every((l) => l.rateGbps === 100)).toBe(true);
  });

  it('routes nodeA→nodeC and nodeB→nodeD through the same core switch (seed: core 2)', () => {
    const ac = routeBetween(fabric, tables, 'nodeA', 'nodeC');
    const bd = routeBetween(fabric, tables, 'nodeB', 'nodeD');
    expect(ac.hops.map((h) => h.node)).toEqual(['nodeA', 'edge1', 'core2', 'edge2', 'nodeC']);
    expect(bd.hops.map((h) => h.node)).toEqual(['nodeB', 'edge1', 'core2', 'edge2', 'nodeD']);
    expect(ac.hops[1]?.outPort).toBe(bd.hops[1]?.outPort);
  });

  it('spreads other destinations over the other core', () => {
    const ad = routeBetween(fabric, tables, 'nodeC', 'nodeB');
    expect(ad.hops.map((h) => h.node)).toContain('core1');
  });

  it('returns hops with in and out ports and one channel per link crossed', () => {
    const route = routeBetween(fabric, tables, 'nodeA', 'nodeB');
    expect(route.hops).toEqual([
      { node: 'nodeA', outPort: 1 },
      { node: 'edge1', inPort: 1, outPort: 2 },
      { node: 'nodeB', inPort: 1 },
    ]);
    expect(route.channels).toHaveLength(2);
  });

  it('refuses a host routed to itself and unknown nodes', () => {
    expect(() => routeBetween(fabric, tables, 'nodeA', 'nodeA')).toThrow(/itself/);
    expect(() => routeBetween(fabric, tables, 'nodeA', 'nodeZ')).toThrow(/unknown node "nodeZ"/);
  });
});
