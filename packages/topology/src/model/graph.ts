import type { Fabric, FabricNode } from './model.ts';

/** Typed-array adjacency of a fabric per channel, node and port, built once and cached. */
export interface FabricGraph {
  /** Node index each channel leaves from / arrives at. */
  channelFromNode: Int32Array;
  channelFromPort: Int32Array;
  channelToNode: Int32Array;
  channelToPort: Int32Array;
  /** outChannel[portOffset[node] + port]: the channel leaving node through port, or -1. */
  portOffset: Int32Array;
  outChannel: Int32Array;
  isSwitch: Uint8Array;
}

const cache = new WeakMap<Fabric, FabricGraph>();

export function fabricGraph(fabric: Fabric): FabricGraph {
  const cached = cache.get(fabric);
  if (cached) return cached;
  const { nodes, links } = fabric;
  const channelCount = links.length * 2;
  const channelFromNode = new Int32Array(channelCount);
  const channelFromPort = new Int32Array(channelCount);
  const channelToNode = new Int32Array(channelCount);
  const channelToPort = new Int32Array(channelCount);
  const portOffset = new Int32Array(nodes.length + 1);
  for (let i = 0; i < nodes.length; i++) {
    portOffset[i + 1] = (portOffset[i] as number) + (nodes[i] as FabricNode).portCount + 1;
  }
  const outChannel = new Int32Array(portOffset[nodes.length] as number).fill(-1);
  const isSwitch = new Uint8Array(nodes.length);
  for (const node of nodes) isSwitch[node.index] = node.type === 'switch' ? 1 : 0;
  for (const link of links) {
    const a = (fabric.nodeByName.get(link.a.node) as FabricNode).index;
    const b = (fabric.nodeByName.get(link.b.node) as FabricNode).index;
    const c = link.index * 2;
    channelFromNode[c] = a;
    channelFromPort[c] = link.a.port;
    channelToNode[c] = b;
    channelToPort[c] = link.b.port;
    channelFromNode[c + 1] = b;
    channelFromPort[c + 1] = link.b.port;
    channelToNode[c + 1] = a;
    channelToPort[c + 1] = link.a.port;
    outChannel[(portOffset[a] as number) + link.a.port] = c;
    outChannel[(portOffset[b] as number) + link.b.port] = c + 1;
  }
  const graph = {
    channelFromNode,
    channelFromPort,
    channelToNode,
    channelToPort,
    portOffset,
    outChannel,
    isSwitch,
  };
  cache.set(fabric, graph);
  return graph;
}

/** Hops from every node to `dst`, walking backwards through switches only (hosts do not forward); -1 unreachable. */
export function hopsTo(
  g: FabricGraph,
  dst: number,
  into: Int32Array = new Int32Array(g.isSwitch.length),
): Int32Array {
  const dist = into.fill(-1);
  dist[dst] = 0;
  const queue = [dst];
  for (let head = 0; head < queue.length; head++) {
    const u = queue[head] as number;
    if (u !== dst && !g.isSwitch[u]) continue;
    for (let p = g.portOffset[u] as number; p < (g.portOffset[u + 1] as number); p++) {
      const c = g.outChannel[p] as number;
      if (c < 0) continue;
      const v = g.channelToNode[c] as number;
      if (dist[v] !== -1) continue;
      dist[v] = (dist[u] as number) + 1;
      queue.push(v);
    }
  }
  return dist;
}

/** Every LID a node answers to (its ports' LIDs, each with 2^lmc LIDs), ascending. */
export function lidsOf(node: FabricNode): number[] {
  const span = 1 << (node.lmc ?? 0);
  const lids = new Set<number>();
  for (const port of node.ports) {
    if (!port || port.link < 0) continue;
    for (let l = port.lid; l < port.lid + span; l++) lids.add(l);
  }
  if (lids.size === 0) for (let l = node.lid; l < node.lid + span; l++) lids.add(l);
  return [...lids].sort((a, b) => a - b);
}
