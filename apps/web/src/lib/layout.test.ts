import type { Topology, TopologyLink } from '@fabscope/contracts';
import { describe, expect, it } from 'vitest';
import { layoutFatTree } from './layout.ts';

function link(a: string, ap: number, b: string, bp: number, kind: 'host' | 'isl'): TopologyLink {
  return {
    id: `${a}/${ap}--${b}/${bp}`,
    kind,
    a: { node: a, port: ap },
    b: { node: b, port: bp },
    rateGbps: 100,
  };
}

/** The seed-002 lab: nodeA, nodeB on edge1; nodeC, nodeD on edge2; one ISL per edge–core pair. */
const arDemo: Topology = {
  name: 'ar-demo',
  fabricType: 'omnipath',
  nodes: [
    // Deliberately shuffled: the layout must not depend on input order.
    { name: 'nodeC', type: 'host', tier: 0, guid: '0x3', lid: 3 },
    { name: 'core2', type: 'switch', tier: 2, guid: '0x9', lid: 9 },
    { name: 'nodeA', type: 'host', tier: 0, guid: '0x1', lid: 1 },
    { name: 'edge2', type: 'switch', tier: 1, guid: '0x7', lid: 7 },
    { name: 'nodeD', type: 'host', tier: 0, guid: '0x5', lid: 5 },
    { name: 'core1', type: 'switch', tier: 2, guid: '0x8', lid: 8 },
    { name: 'edge1', type: 'switch', tier: 1, guid: '0x6', lid: 6 },
    { name: 'nodeB', type: 'host', tier: 0, guid: '0x2', lid: 2 },
  ],
  links: [
    link('nodeA', 1, 'edge1', 1, 'host'),
    link('nodeB', 1, 'edge1', 2, 'host'),
    link('nodeC', 1, 'edge2', 1, 'host'),
    link('nodeD', 1, 'edge2', 2, 'host'),
    link('edge1', 3, 'core1', 1, 'isl'),
    link('edge1', 4, 'core2', 1, 'isl'),
    link('edge2', 3, 'core1', 2, 'isl'),
    link('edge2', 4, 'core2', 2, 'isl'),
  ],
};

describe('layoutFatTree', () => {
  const layout = layoutFatTree(arDemo);
  const node = (name: string) => {
    const n = layout.nodes.find((x) => x.name === name);
    if (!n) throw new Error(`no ${name}`);
    return n;
  };

  it('puts core on top, edge in the middle, hosts at the bottom', () => {
    expect(layout.tiers.map((t) => t.label)).toEqual(['core', 'edge', 'hosts']);
    expect(node('core1').y).toBeLessThan(node('edge1').y);
    expect(node('edge1').y).toBeLessThan(node('nodeA').y);
    expect(node('core1').y).toBe(node('core2').y);
  });

  it('orders each row naturally and hosts under their edge switch', () => {
    const row = (tier: number) =>
      layout.nodes
        .filter((n) => n.tier === tier)
        .sort((a, b) => a.x - b.x)
        .map((n) => n.name);
    expect(row(2)).toEqual(['core1', 'core2']);
    expect(row(1)).toEqual(['edge1', 'edge2']);
    expect(row(0)).toEqual(['nodeA', 'nodeB', 'nodeC', 'nodeD']);
    // edge1 sits between its hosts
    expect(node('nodeA').x).toBeLessThan(node('edge1').x);
    expect(node('nodeB').x).toBeGreaterThan(node('edge1').x);
  });

  it('keeps every node inside the drawing', () => {
    for (const n of layout.nodes) {
      expect(n.x).toBeGreaterThan(0);
      expect(n.x).toBeLessThan(layout.width);
      expect(n.y).toBeGreaterThan(0);
      expect(n.y).toBeLessThan(layout.height);
    }
  });

  it('makes two channels per link, named as the stream names them, offset to opposite sides', () => {
    expect(layout.channels).toHaveLength(16);
    const up = layout.channels.find((c) => c.id === 'edge1/4->core2/1');
    const down = layout.channels.find((c) => c.id === 'core2/1->edge1/4');
    expect(up?.direction).toBe('up');
    expect(down?.direction).toBe('down');
    expect(up?.linkId).toBe('edge1/4--core2/1');
    if (!up || !down) throw new Error('missing channels');
    // Same cable, mirrored offset: the midpoints differ, their mean is the cable's midpoint.
    const mid = (c: typeof up) => [(c.x1 + c.x2) / 2, (c.y1 + c.y2) / 2] as const;
    const [ux, uy] = mid(up);
    const [dx, dy] = mid(down);
    expect(Math.hypot(ux - dx, uy - dy)).toBeCloseTo(8, 5);
    expect(Math.abs(up.angle - down.angle)).toBeCloseTo(180, 6);
    const cable = [(node('edge1').x + node('core2').x) / 2, (node('edge1').y + node('core2').y) / 2];
    expect((ux + dx) / 2).toBeCloseTo(cable[0] ?? Number.NaN, 6);
    expect((uy + dy) / 2).toBeCloseTo(cable[1] ?? Number.NaN, 6);
  });

  it('is deterministic and independent of node order', () => {
    const again = layoutFatTree({ ...arDemo, nodes: [...arDemo.nodes].reverse() });
    const key = (l: typeof layout) =>
      l.nodes
        .map((n) => `${n.name}@${n.x},${n.y}`)
        .sort()
        .join(' ');
    expect(key(again)).toBe(key(layout));
  });

  it('rejects links to unknown nodes and duplicate names precisely', () => {
    expect(() => layoutFatTree({ ...arDemo, links: [link('nodeA', 1, 'ghost', 1, 'host')] })).toThrow(
      'link "nodeA/1--ghost/1" references unknown node "ghost"',
    );
    const first = arDemo.nodes[0];
    if (!first) throw new Error('no nodes');
    expect(() => layoutFatTree({ ...arDemo, nodes: [...arDemo.nodes, first] })).toThrow(
      'duplicate node "nodeC"',
    );
  });

  it('handles an empty fabric', () => {
    const empty = layoutFatTree({ name: 'x', fabricType: 'ethernet', nodes: [], links: [] });
    expect(empty.nodes).toEqual([]);
    expect(empty.channels).toEqual([]);
  });
});
