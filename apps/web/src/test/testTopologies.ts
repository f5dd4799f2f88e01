import type { Topology, TopologyLink, TopologyNode } from '@fabscope/contracts';

/** Small topologies for the unit tests, laid out as packages/topology's generators do. */

function node(name: string, type: TopologyNode['type'], tier: number, i: number): TopologyNode {
  return { name, type, tier, guid: `0x${i.toString(16)}`, lid: i + 1 };
}

function link(a: string, ap: number, b: string, bp: number, kind: 'host' | 'isl'): TopologyLink {
  return {
    id: `${a}/${ap}--${b}/${bp}`,
    kind,
    a: { node: a, port: ap },
    b: { node: b, port: bp },
    rateGbps: 100,
  };
}

/** Hosts first, then edge–core cables; edge ports 1..h face hosts, then core c trunk k. */
export function twoTier(edges: number, cores: number, hostsPerEdge: number, trunks = 1): Topology {
  const nodes: TopologyNode[] = [];
  const links: TopologyLink[] = [];
  let i = 0;
  for (let e = 1; e <= edges; e++) {
    for (let h = 1; h <= hostsPerEdge; h++)
      nodes.push(node(`host${(e - 1) * hostsPerEdge + h}`, 'host', 0, i++));
  }
  for (let e = 1; e <= edges; e++) nodes.push(node(`edge${e}`, 'switch', 1, i++));
  for (let c = 1; c <= cores; c++) nodes.push(node(`core${c}`, 'switch', 2, i++));
  for (let e = 1; e <= edges; e++) {
    for (let h = 1; h <= hostsPerEdge; h++)
      links.push(link(`host${(e - 1) * hostsPerEdge + h}`, 1, `edge${e}`, h, 'host'));
  }
  for (let e = 1; e <= edges; e++) {
    for (let c = 1; c <= cores; c++) {
      for (let k = 0; k < trunks; k++) {
        links.push(
          link(
            `edge${e}`,
            hostsPerEdge + (c - 1) * trunks + k + 1,
            `core${c}`,
            (e - 1) * trunks + k + 1,
            'isl',
          ),
        );
      }
    }
  }
  return { name: `two-tier-${edges}x${cores}`, fabricType: 'omnipath', nodes, links };
}

/** Two pods of 2 edge + 2 aggregation switches, 2 hosts per edge, 2 core switches per aggregation position. */
export function threeTier(): Topology {
  const nodes: TopologyNode[] = [];
  const links: TopologyLink[] = [];
  let i = 0;
  for (let h = 1; h <= 8; h++) nodes.push(node(`host${h}`, 'host', 0, i++));
  for (let e = 1; e <= 4; e++) nodes.push(node(`edge${e}`, 'switch', 1, i++));
  for (let a = 1; a <= 4; a++) nodes.push(node(`agg${a}`, 'switch', 2, i++));
  for (let c = 1; c <= 4; c++) nodes.push(node(`core${c}`, 'switch', 3, i++));
  for (let h = 1; h <= 8; h++)
    links.push(link(`host${h}`, 1, `edge${Math.ceil(h / 2)}`, ((h - 1) % 2) + 1, 'host'));
  for (let p = 0; p < 2; p++) {
    for (let e = 1; e <= 2; e++) {
      for (let a = 1; a <= 2; a++) links.push(link(`edge${p * 2 + e}`, 2 + a, `agg${p * 2 + a}`, e, 'isl'));
    }
    for (let a = 1; a <= 2; a++) {
      for (let j = 1; j <= 2; j++)
        links.push(link(`agg${p * 2 + a}`, 2 + j, `core${(a - 1) * 2 + j}`, p + 1, 'isl'));
    }
  }
  return { name: 'three-tier-small', fabricType: 'omnipath', nodes, links };
}
