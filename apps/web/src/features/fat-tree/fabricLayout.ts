import type { FabricType, Topology, TopologyLink } from '@fabscope/contracts';
import { naturalCompare } from '@fabscope/contracts/names';
import { DisjointSets } from '../../lib/disjointSets.ts';
import { fabricTerms } from '../../lib/fabricTerms.ts';
import {
  type FatTreeLayout,
  LABEL_CHAR_PX,
  type LayoutChannel,
  type LayoutNode,
  layoutChannels,
  layoutFatTree,
  nodeBoxWidth,
} from '../../lib/layout.ts';

/** One layout per fabric shape: a single switch's ring, networks in their own areas, or tiers. */
export type FabricShape = 'single-switch' | 'networks' | 'tiers';

export interface NetworkArea {
  fabricType: FabricType;
  /** e.g. "Ethernet · 40 GbE · 5 hosts". */
  label: string;
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface FabricLayout extends FatTreeLayout {
  shape: FabricShape;
  networks: NetworkArea[];
}

/** The shape of a fabric, from its nodes and cables alone. */
export function fabricShape(topology: Topology): FabricShape {
  const switches = topology.nodes.filter((n) => n.type === 'switch');
  if (networksOf(topology).length > 1) return 'networks';
  if (
    switches.length === 1 &&
    topology.nodes.length >= 4 &&
    topology.nodes.every((n) => n.type !== 'router') &&
    topology.links.every((l) => l.kind === 'host')
  )
    return 'single-switch';
  return 'tiers';
}

export function layoutFabric(topology: Topology): FabricLayout {
  const shape = fabricShape(topology);
  if (shape === 'single-switch') return layoutSingleSwitch(topology);
  if (shape === 'networks') return layoutNetworks(topology);
  return { ...layoutFatTree(topology), shape, networks: [] };
}

/** Host ring radius: room for a 14 px label per host around the ring, and never cramped. */
export function ringRadius(hosts: number): number {
  return Math.max(150, Math.ceil((hosts * 16) / (2 * Math.PI)) + 40);
}

function layoutSingleSwitch(topology: Topology): FabricLayout {
  const hub = topology.nodes.find((n) => n.type === 'switch');
  if (!hub) throw new Error('layoutSingleSwitch: no switch');
  const hosts = topology.nodes.filter((n) => n !== hub).sort((a, b) => naturalCompare(a.name, b.name));
  const radius = ringRadius(hosts.length);
  const longest = Math.max(0, ...hosts.map((h) => h.name.length)) * LABEL_CHAR_PX;
  const margin = 16;
  const half = radius + 14 + longest + margin;
  const hubRadius = Math.max(36, (hub.name.length * LABEL_CHAR_PX) / 2 + 10);
  const nodes: LayoutNode[] = [
    { name: hub.name, type: hub.type, tier: hub.tier, x: half, y: half, width: hubRadius * 2, mark: 'hub' },
  ];
  hosts.forEach((host, i) => {
    // Clockwise from the top.
    const theta = -Math.PI / 2 + (2 * Math.PI * i) / hosts.length;
    const degrees = (theta * 180) / Math.PI;
    const left = Math.cos(theta) < -1e-9;
    nodes.push({
      name: host.name,
      type: host.type,
      tier: host.tier,
      x: half + radius * Math.cos(theta),
      y: half + radius * Math.sin(theta),
      width: 12,
      mark: 'dot',
      // Read left to right on both halves: the left half's names are turned round.
      label: {
        dx: 12 * Math.cos(theta),
        dy: 12 * Math.sin(theta),
        rotate: left ? degrees + 180 : degrees,
        anchor: left ? 'end' : 'start',
      },
    });
  });
  const at = new Map(nodes.map((n) => [n.name, n]));
  const channels = layoutChannels(topology.links, at, 3).map((c) =>
    trimChannel(c, c.from.node === hub.name ? hubRadius : 8, c.to.node === hub.name ? hubRadius : 8),
  );
  return {
    shape: 'single-switch',
    width: 2 * half,
    height: 2 * half,
    tiers: [],
    nodes,
    channels,
    networks: [],
  };
}

/** Shortens a stroke by `start` px at its sender and `end` px at its receiver (round marks). */
function trimChannel(c: LayoutChannel, start: number, end: number): LayoutChannel {
  const dx = c.x2 - c.x1;
  const dy = c.y2 - c.y1;
  const len = Math.hypot(dx, dy) || 1;
  const ux = dx / len;
  const uy = dy / len;
  const x1 = c.x1 + ux * start;
  const y1 = c.y1 + uy * start;
  const x2 = c.x2 - ux * end;
  const y2 = c.y2 - uy * end;
  return { ...c, x1, y1, x2, y2, mx: (x1 + x2) / 2, my: (y1 + y2) / 2 };
}

interface Network {
  fabricType: FabricType;
  nodes: Topology['nodes'];
  links: TopologyLink[];
}

/** A fabric's networks (connected without routers); a network's type is its cables' majority. */
export function networksOf(topology: Topology): Network[] {
  const routers = new Set(topology.nodes.filter((n) => n.type === 'router').map((n) => n.name));
  const sets = new DisjointSets(topology.nodes.filter((n) => !routers.has(n.name)).map((n) => n.name));
  for (const l of topology.links) {
    if (routers.has(l.a.node) || routers.has(l.b.node)) continue;
    if (!sets.has(l.a.node) || !sets.has(l.b.node)) continue;
    sets.union(l.a.node, l.b.node);
  }
  const groups = new Map<string, Network>();
  for (const n of topology.nodes) {
    if (routers.has(n.name)) continue;
    const root = sets.find(n.name);
    const group = groups.get(root) ?? { fabricType: topology.fabricType, nodes: [], links: [] };
    group.nodes.push(n);
    groups.set(root, group);
  }
  for (const l of topology.links) {
    if (routers.has(l.a.node) || routers.has(l.b.node)) continue;
    groups.get(sets.find(l.a.node))?.links.push(l);
  }
  for (const g of groups.values()) {
    const votes = new Map<FabricType, number>();
    for (const l of g.links) if (l.fabricType) votes.set(l.fabricType, (votes.get(l.fabricType) ?? 0) + 1);
    const top = [...votes.entries()].sort((a, b) => b[1] - a[1])[0];
    if (top) g.fabricType = top[0];
  }
  // Hosts and switches left alone (no cable) are not a network of their own.
  return [...groups.values()]
    .filter((g) => g.links.length > 0 || g.nodes.length > 1)
    .sort((a, b) => naturalCompare(firstName(a), firstName(b)));
}

const firstName = (n: Network): string => n.nodes.map((x) => x.name).sort(naturalCompare)[0] ?? '';

export function networkLabel(network: Pick<Network, 'fabricType' | 'nodes' | 'links'>): string {
  const terms = fabricTerms(network.fabricType);
  const rates = [...new Set(network.links.map((l) => l.rateGbps))].sort((a, b) => b - a);
  const hosts = network.nodes.filter((n) => n.type === 'host').length;
  // Several subnets watched at once: each network says which one it is (its nodes share it).
  const subnets = new Set(network.nodes.map((n) => n.subnet));
  const subnet = subnets.size === 1 ? [...subnets][0] : undefined;
  return [
    terms.name,
    subnet === undefined ? '' : `subnet ${subnet}`,
    rates.map(terms.rate).join(', '),
    `${hosts} host${hosts === 1 ? '' : 's'}`,
  ]
    .filter(Boolean)
    .join(' · ');
}

const HEADER = 28;
const NETWORK_GAP = 40;

function layoutNetworks(topology: Topology): FabricLayout {
  const networks = networksOf(topology);
  const routerNodes = topology.nodes.filter((n) => n.type === 'router');
  const homeOf = new Map<string, number>();
  networks.forEach((net, i) => {
    for (const n of net.nodes) homeOf.set(n.name, i);
  });
  // Each router sits in the gap after the first network it is cabled to.
  const routersAfter = new Map<number, Topology['nodes']>();
  for (const r of routerNodes) {
    const joined = topology.links
      .map((l) => (l.a.node === r.name ? l.b.node : l.b.node === r.name ? l.a.node : null))
      .map((n) => (n === null ? undefined : homeOf.get(n)))
      .filter((i): i is number => i !== undefined);
    const gap = joined.length > 0 ? Math.min(...joined) : networks.length - 1;
    routersAfter.set(gap, [...(routersAfter.get(gap) ?? []), r]);
  }

  const parts: NetworkPart[] = networks.map((net) => {
    const label = networkLabel(net);
    const layout = layoutFatTree(
      { name: topology.name, fabricType: net.fabricType, nodes: net.nodes, links: net.links },
      { minWidth: Math.max(160, label.length * LABEL_CHAR_PX + 24), gutter: 16, margin: 40, tierGap: 130 },
    );
    return { net, label, layout };
  });
  // Networks no router joins are stacked; routers sit between the networks they join.
  if (routerNodes.length === 0) return stackNetworks(topology, parts);
  const height = Math.max(0, ...parts.map((p) => p.layout.height)) + HEADER;
  const nodes: LayoutNode[] = [];
  const areas: NetworkArea[] = [];
  let x = 0;
  parts.forEach((part, i) => {
    // Rows of shorter networks sit at the bottom, level with the others' hosts.
    const dy = height - part.layout.height;
    areas.push(area(part, x, 0, part.layout.width, height));
    for (const n of part.layout.nodes)
      nodes.push({ ...n, x: n.x + x, y: n.y + dy, network: part.net.fabricType });
    x += part.layout.width;
    const routers = routersAfter.get(i) ?? [];
    if (routers.length > 0 || i < parts.length - 1) {
      const gap = Math.max(
        NETWORK_GAP,
        ...routers.map((r) => nodeBoxWidth('router', r.name) + 2 * NETWORK_GAP),
      );
      routers.forEach((r, k) => {
        nodes.push({
          name: r.name,
          type: r.type,
          tier: r.tier,
          x: x + gap / 2,
          y: height - 40 - 70 * k - 40,
          width: 36,
          mark: 'router',
          label: { dx: 0, dy: 32, rotate: 0, anchor: 'middle' },
        });
      });
      x += gap;
    }
  });
  const at = new Map(nodes.map((n) => [n.name, n]));
  return {
    shape: 'networks',
    width: Math.max(x, 1),
    height,
    tiers: [],
    nodes,
    channels: layoutChannels(topology.links, at, 4),
    networks: areas,
  };
}

interface NetworkPart {
  net: Network;
  label: string;
  layout: FatTreeLayout;
}

function area(part: NetworkPart, x: number, y: number, width: number, height: number): NetworkArea {
  return {
    fabricType: part.net.fabricType,
    label: part.label,
    x: x + 4,
    y: y + 4,
    width: width - 8,
    height: height - 8,
  };
}

function stackNetworks(topology: Topology, parts: NetworkPart[]): FabricLayout {
  const width = Math.max(1, ...parts.map((p) => p.layout.width));
  const nodes: LayoutNode[] = [];
  const areas: NetworkArea[] = [];
  let y = 0;
  for (const part of parts) {
    const dx = (width - part.layout.width) / 2;
    areas.push(area(part, 0, y, width, part.layout.height + HEADER));
    for (const n of part.layout.nodes)
      nodes.push({ ...n, x: n.x + dx, y: n.y + y + HEADER, network: part.net.fabricType });
    y += part.layout.height + HEADER;
  }
  const at = new Map(nodes.map((n) => [n.name, n]));
  return {
    shape: 'networks',
    width,
    height: y,
    tiers: [],
    nodes,
    channels: layoutChannels(topology.links, at, 4),
    networks: areas,
  };
}
