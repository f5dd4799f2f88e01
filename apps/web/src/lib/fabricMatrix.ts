import type { Topology, TopologyNode } from '@fabscope/contracts';
import { naturalCompare } from '@fabscope/contracts/names';

/** A two-tier fabric's ISL matrix and host-port strip as channel indices, made once per topology. */

/** One edge–core pair: every trunked cable between them, in both directions. */
export interface IslCell {
  edge: string;
  core: string;
  /** Channels edge → core, one per trunk (port order). */
  up: number[];
  /** Channels core → edge, one per trunk, in the same order as `up`. */
  down: number[];
  edgePorts: number[];
  corePorts: number[];
}

export interface HostPortCell {
  edge: string;
  edgePort: number;
  host: string;
  hostPort: number;
  /** Channel host → edge (the host transmits). */
  up: number;
  /** Channel edge → host (the host receives). */
  down: number;
}

export interface TwoTierMatrix {
  edges: string[];
  cores: string[];
  /** Host-facing edge port numbers, the strip's columns (union over all edge switches). */
  hostPorts: number[];
  /** Row-major edges × cores; null where an edge and a core are not cabled. */
  isl: (IslCell | null)[];
  /** Row-major edges × hostPorts; null where the port has no host. */
  hosts: (HostPortCell | null)[];
  channelCount: number;
  /** Most trunked cables in one ISL cell (1 without trunking). */
  maxTrunk: number;
}

export type FabricMatrix = { kind: 'two-tier'; matrix: TwoTierMatrix } | { kind: 'other'; reason: string };

const isSwitch = (node: TopologyNode): boolean => node.type === 'switch';

/** The two-tier matrix of a fabric, or why it is not two-tier; throws on unknown nodes. */
export function buildFabricMatrix(topology: Topology): FabricMatrix {
  const byName = new Map<string, TopologyNode>();
  for (const node of topology.nodes) byName.set(node.name, node);
  const topTier = Math.max(0, ...topology.nodes.filter(isSwitch).map((n) => n.tier));
  if (topTier > 2) return { kind: 'other', reason: `the fabric has ${topTier} switch tiers` };

  const edges = topology.nodes
    .filter((n) => isSwitch(n) && n.tier === 1)
    .map((n) => n.name)
    .sort(naturalCompare);
  const cores = topology.nodes
    .filter((n) => isSwitch(n) && n.tier === 2)
    .map((n) => n.name)
    .sort(naturalCompare);
  const edgeRow = new Map(edges.map((name, i) => [name, i]));
  const coreCol = new Map(cores.map((name, i) => [name, i]));

  const isl = new Map<number, IslCell>();
  const hostPorts = new Map<string, HostPortCell>();
  const portSet = new Set<number>();
  for (const [i, link] of topology.links.entries()) {
    const a = byName.get(link.a.node);
    const b = byName.get(link.b.node);
    if (!a || !b) {
      const missing = a ? link.b.node : link.a.node;
      throw new Error(`buildFabricMatrix: link "${link.id}" references unknown node "${missing}"`);
    }
    const aUp = 2 * i; // a → b
    const bUp = 2 * i + 1; // b → a
    if (isSwitch(a) && isSwitch(b)) {
      if (a.tier === b.tier) return { kind: 'other', reason: `${a.name} and ${b.name} share tier ${a.tier}` };
      const aIsEdge = a.tier < b.tier;
      const [edge, core] = aIsEdge ? [link.a, link.b] : [link.b, link.a];
      const row = edgeRow.get(edge.node);
      const col = coreCol.get(core.node);
      if (row === undefined || col === undefined) {
        return { kind: 'other', reason: `${link.id} is not an edge–core cable` };
      }
      const key = row * cores.length + col;
      const cell = isl.get(key) ?? {
        edge: edge.node,
        core: core.node,
        up: [],
        down: [],
        edgePorts: [],
        corePorts: [],
      };
      cell.up.push(aIsEdge ? aUp : bUp);
      cell.down.push(aIsEdge ? bUp : aUp);
      cell.edgePorts.push(edge.port);
      cell.corePorts.push(core.port);
      isl.set(key, cell);
      continue;
    }
    if (isSwitch(a) === isSwitch(b)) return { kind: 'other', reason: `${link.id} joins two hosts` };
    const aIsHost = !isSwitch(a);
    const [host, sw] = aIsHost ? [link.a, link.b] : [link.b, link.a];
    if (!edgeRow.has(sw.node)) return { kind: 'other', reason: `host ${host.node} is cabled to ${sw.node}` };
    portSet.add(sw.port);
    hostPorts.set(`${sw.node}/${sw.port}`, {
      edge: sw.node,
      edgePort: sw.port,
      host: host.node,
      hostPort: host.port,
      up: aIsHost ? aUp : bUp,
      down: aIsHost ? bUp : aUp,
    });
  }

  const ports = [...portSet].sort((x, y) => x - y);
  let maxTrunk = 1;
  const islCells: (IslCell | null)[] = new Array(edges.length * cores.length).fill(null);
  for (const [key, cell] of isl) {
    // Trunks in edge port order, so a tooltip lists them as the switch does.
    const order = cell.edgePorts
      .map((_, k) => k)
      .sort((x, y) => (cell.edgePorts[x] ?? 0) - (cell.edgePorts[y] ?? 0));
    const pick = (list: number[]) => order.map((k) => list[k] ?? -1);
    islCells[key] = {
      ...cell,
      up: pick(cell.up),
      down: pick(cell.down),
      edgePorts: pick(cell.edgePorts),
      corePorts: pick(cell.corePorts),
    };
    maxTrunk = Math.max(maxTrunk, cell.up.length);
  }
  const hosts: (HostPortCell | null)[] = [];
  for (const edge of edges) {
    for (const port of ports) hosts.push(hostPorts.get(`${edge}/${port}`) ?? null);
  }
  return {
    kind: 'two-tier',
    matrix: {
      edges,
      cores,
      hostPorts: ports,
      isl: islCells,
      hosts,
      channelCount: topology.links.length * 2,
      maxTrunk,
    },
  };
}
