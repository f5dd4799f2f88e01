import type { FabricType, Topology, TopologyLink, TopologyNode } from '@fabscope/contracts';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LABEL_CHAR_PX, type LayoutNode } from '../../lib/layout.ts';
import { twoTier } from '../../test/testTopologies.ts';
import { type FabricLayout, fabricShape, layoutFabric, networksOf } from './fabricLayout.ts';

type Point = [number, number];

function node(name: string, type: TopologyNode['type'], tier: number): TopologyNode {
  return { name, type, tier, guid: `0x${name.length}`, lid: 1 };
}

function cable(
  a: string,
  ap: number,
  b: string,
  bp: number,
  rateGbps: number,
  fabricType?: FabricType,
): TopologyLink {
  return {
    id: `${a}/${ap}--${b}/${bp}`,
    kind: 'host',
    a: { node: a, port: ap },
    b: { node: b, port: bp },
    rateGbps,
    ...(fabricType ? { fabricType } : {}),
  };
}

function singleSwitch(names: string[]): Topology {
  return {
    name: 'one-switch',
    fabricType: 'omnipath',
    nodes: [node('switch1', 'switch', 1), ...names.map((n) => node(n, 'host', 0))],
    links: names.map((n, i) => cable(n, 1, 'switch1', i + 1, 100)),
  };
}

/** Seed 003: five hosts on an Ethernet switch beside five on an InfiniBand switch. */
function lustre(): Topology {
  const nodes = [node('eth-switch', 'switch', 1), node('ib-switch', 'switch', 1)];
  const links: TopologyLink[] = [];
  for (const [suffix, sw, rate, type] of [
    ['eth', 'eth-switch', 40, undefined],
    ['ib', 'ib-switch', 56, 'infiniband'],
  ] as const) {
    ['lustre-server', 'client1', 'client2', 'client3', 'client4'].forEach((h, i) => {
      nodes.push(node(`${h}-${suffix}`, 'host', 0));
      links.push(cable(`${h}-${suffix}`, 1, sw, i + 1, rate, type));
    });
  }
  return { name: 'lustre-storage', fabricType: 'ethernet', nodes, links };
}

/** Seed 000: opa-node and eth-node joined by an IP router. */
function routed(): Topology {
  return {
    name: 'opa-ethernet-router',
    fabricType: 'omnipath',
    nodes: [
      node('opa-node', 'host', 0),
      node('eth-node', 'host', 0),
      node('router', 'router', 0),
      node('opa-edge', 'switch', 1),
      node('eth-switch', 'switch', 1),
    ],
    links: [
      cable('opa-node', 1, 'opa-edge', 1, 100),
      cable('router', 1, 'opa-edge', 2, 100),
      cable('router', 2, 'eth-switch', 1, 100, 'ethernet'),
      cable('eth-node', 1, 'eth-switch', 2, 100, 'ethernet'),
    ],
  };
}

/** The outline of a node's name as drawn (11 px text, LABEL_CHAR_PX a character), as a polygon. */
function labelPolygon(n: LayoutNode): Point[] {
  const w = n.name.length * LABEL_CHAR_PX;
  const h = 13;
  const l = n.label;
  // Unrotated text box relative to its anchor point, baseline 4 px below the centre line.
  const x0 = !l || l.anchor === 'middle' ? -w / 2 : l.anchor === 'end' ? -w : 0;
  const corners: Point[] = [
    [x0, -h / 2],
    [x0 + w, -h / 2],
    [x0 + w, h / 2],
    [x0, h / 2],
  ];
  const a = ((l?.rotate ?? 0) * Math.PI) / 180;
  return corners.map(([x, y]) => [
    n.x + (l?.dx ?? 0) + x * Math.cos(a) - y * Math.sin(a),
    n.y + (l?.dy ?? 0) + x * Math.sin(a) + y * Math.cos(a),
  ]);
}

/** Separating-axis test for two convex polygons. */
function overlap(p: Point[], q: Point[]): boolean {
  for (const poly of [p, q]) {
    for (let i = 0; i < poly.length; i++) {
      const [x1, y1] = poly[i] as Point;
      const [x2, y2] = poly[(i + 1) % poly.length] as Point;
      const axis: Point = [y1 - y2, x2 - x1];
      const project = (r: Point[]) => r.map(([x, y]) => x * axis[0] + y * axis[1]);
      const a = project(p);
      const b = project(q);
      if (Math.max(...a) <= Math.min(...b) || Math.max(...b) <= Math.min(...a)) return false;
    }
  }
  return true;
}

function overlappingLabels(layout: FabricLayout): string[] {
  const polys = layout.nodes.map((n) => ({ name: n.name, poly: labelPolygon(n) }));
  const hits: string[] = [];
  for (let i = 0; i < polys.length; i++)
    for (let j = i + 1; j < polys.length; j++) {
      const a = polys[i];
      const b = polys[j];
      if (a && b && overlap(a.poly, b.poly)) hits.push(`${a.name} × ${b.name}`);
    }
  return hits;
}

const names = (n: number) => Array.from({ length: n }, (_, i) => `node${String(i + 1).padStart(2, '0')}`);

describe('layoutFabric: a single switch', () => {
  it('puts the switch in the middle and its hosts on a ring, clockwise from the top', () => {
    const layout = layoutFabric(singleSwitch(names(32)));
    expect(layout.shape).toBe('single-switch');
    const hub = layout.nodes.find((n) => n.name === 'switch1');
    expect(hub).toMatchObject({ x: layout.width / 2, y: layout.height / 2, mark: 'hub' });
    const hosts = layout.nodes.filter((n) => n.type === 'host');
    const radii = hosts.map((h) => Math.hypot(h.x - (hub?.x ?? 0), h.y - (hub?.y ?? 0)));
    for (const r of radii) expect(r).toBeCloseTo(radii[0] ?? 0, 6);
    expect(hosts[0]?.name).toBe('node01');
    expect(hosts[0]?.y).toBeLessThan(hub?.y ?? 0);
    expect(hosts[8]?.x).toBeGreaterThan(hub?.x ?? 0); // a quarter turn on: the right
  });

  it('stays square and fits a 560 px panel at 32 and 48 hosts, so labels are drawn at full size', () => {
    for (const n of [32, 48]) {
      const layout = layoutFabric(singleSwitch(names(n)));
      expect(layout.width).toBe(layout.height);
      expect(layout.width).toBeLessThanOrEqual(560);
      expect(overlappingLabels(layout)).toEqual([]);
    }
  });

  it('never overlaps two names, whatever their number and lengths', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.stringMatching(/^[a-z][a-z0-9-]{0,15}$/), { minLength: 20, maxLength: 64 }),
        (hostNames) => {
          const layout = layoutFabric(singleSwitch(hostNames.filter((h) => h !== 'switch1')));
          return overlappingLabels(layout).length === 0;
        },
      ),
      { numRuns: 60 },
    );
  });

  it('draws both directions of every cable, starting off the hub', () => {
    const layout = layoutFabric(singleSwitch(names(8)));
    expect(layout.channels).toHaveLength(16);
    const hub = layout.nodes.find((n) => n.mark === 'hub');
    for (const c of layout.channels) {
      const start = c.from.node === 'switch1' ? [c.x1, c.y1] : [c.x2, c.y2];
      expect(Math.hypot((start[0] ?? 0) - (hub?.x ?? 0), (start[1] ?? 0) - (hub?.y ?? 0))).toBeGreaterThan(
        30,
      );
    }
  });
});

describe('layoutFabric: several networks', () => {
  it('names each network with its own terms', () => {
    const layout = layoutFabric(lustre());
    expect(layout.shape).toBe('networks');
    expect(layout.networks.map((n) => n.label)).toEqual([
      'Ethernet · 40 GbE · 5 hosts',
      'InfiniBand · 56 Gb/s · 5 hosts',
    ]);
  });

  it('keeps every node inside its own network and no two labels overlapping', () => {
    const layout = layoutFabric(lustre());
    for (const n of layout.nodes) {
      const area = layout.networks.find((a) => a.fabricType === n.network);
      expect(area, n.name).toBeDefined();
      if (!area) continue;
      expect(n.x - n.width / 2).toBeGreaterThan(area.x);
      expect(n.x + n.width / 2).toBeLessThan(area.x + area.width);
      expect(n.y).toBeGreaterThan(area.y + 20); // below the network's name
      expect(n.y).toBeLessThan(area.y + area.height);
    }
    expect(n(layout, 'client1-ib').network).toBe('infiniband');
    expect(n(layout, 'client1-eth').network).toBe('ethernet');
    expect(overlappingLabels(layout)).toEqual([]);
  });

  it('names each of several InfiniBand subnets by its subnet', () => {
    const onSubnet = (subnet: string, names: string[]) =>
      names.map((name, i) => ({ ...node(name, i === 0 ? 'switch' : 'host', i === 0 ? 1 : 0), subnet }));
    const planes: Topology = {
      name: 'planes',
      fabricType: 'infiniband',
      nodes: [
        ...onSubnet('mlx5_0:1', ['p1-leaf', 'node001/mlx5_0', 'node002/mlx5_0']),
        ...onSubnet('mlx5_1:1', ['p2-leaf', 'node001/mlx5_1', 'node002/mlx5_1']),
      ],
      links: [
        cable('node001/mlx5_0', 1, 'p1-leaf', 1, 100),
        cable('node002/mlx5_0', 1, 'p1-leaf', 2, 100),
        cable('node001/mlx5_1', 1, 'p2-leaf', 1, 100),
        cable('node002/mlx5_1', 1, 'p2-leaf', 2, 100),
      ],
    };
    expect(layoutFabric(planes).networks.map((n) => n.label)).toEqual([
      'InfiniBand · subnet mlx5_0:1 · 100 Gb/s · 2 hosts',
      'InfiniBand · subnet mlx5_1:1 · 100 Gb/s · 2 hosts',
    ]);
  });

  it('draws a router as a router, between the two networks it joins', () => {
    const layout = layoutFabric(routed());
    expect(networksOf(routed()).map((x) => x.fabricType)).toEqual(['ethernet', 'omnipath']);
    const router = n(layout, 'router');
    expect(router.mark).toBe('router');
    const [left, right] = layout.networks;
    expect(router.x).toBeGreaterThan((left?.x ?? 0) + (left?.width ?? 0));
    expect(router.x).toBeLessThan(right?.x ?? 0);
    expect(layout.channels.filter((c) => c.from.node === 'router')).toHaveLength(2);
    expect(overlappingLabels(layout)).toEqual([]);
  });
});

describe('fabricShape', () => {
  it('lays out fat trees by tier, however few switches', () => {
    expect(fabricShape(twoTier(2, 2, 2))).toBe('tiers');
    expect(layoutFabric(twoTier(2, 2, 2)).tiers.map((t) => t.label)).toEqual(['core', 'edge', 'hosts']);
  });
});

function n(layout: FabricLayout, name: string): LayoutNode {
  const found = layout.nodes.find((x) => x.name === name);
  if (!found) throw new Error(`no ${name}`);
  return found;
}
