import { type Fabric, type FabricNode, channelFrom, channelOf } from '../model.ts';
import { emptyTables, type ForwardingTables, NO_ROUTE } from './tables.ts';

/**
 * Up-then-down ("up*-down*") fat-tree routing with D-mod-K up-port selection.
 *
 * Source: Zahavi, "D-Mod-K Routing Providing Non-Blocking Traffic for Shift Permutations on Real
 * Life Fat Trees" (CCIT report 776, Technion, 2010), as used by OpenSM's ftree and opa-fm's
 * fattree engines. A switch that has the destination below it sends it down; otherwise it sends it
 * up through up-port floor(LID / D) mod K, where K is the switch's up-port count and D the product
 * of the up-port counts of the tiers below, so consecutive LIDs fan out over distinct spines.
 */
export function fatTreeRouting(fabric: Fabric): ForwardingTables {
  const tables = emptyTables(fabric, 'fattree');
  const { nodes } = fabric;
  const upPorts: number[][] = nodes.map(() => []);
  const parents: { port: number; parent: number; parentPort: number }[][] = nodes.map(() => []);

  for (const node of nodes) {
    if (node.type !== 'switch') continue;
    for (const port of node.ports) {
      if (!port || port.link < 0) continue;
      const channel = channelOf(fabric, channelFrom(fabric, node, port.number));
      const peer = fabric.nodeByName.get(channel.to.node) as FabricNode;
      if (peer.type === 'switch' && peer.tier > node.tier) {
        upPorts[node.index]?.push(port.number);
        parents[node.index]?.push({ port: port.number, parent: peer.index, parentPort: channel.to.port });
      }
    }
  }

  // D for each tier: product of the up-port counts of the tiers below it.
  const upCountByTier = new Map<number, number>();
  for (const node of nodes) {
    if (node.type === 'switch') {
      const count = upPorts[node.index]?.length ?? 0;
      upCountByTier.set(node.tier, Math.max(upCountByTier.get(node.tier) ?? 0, count));
    }
  }
  const divisorByTier = new Map<number, number>();
  let divisor = 1;
  const tiers = [...upCountByTier.keys()].sort((a, b) => a - b);
  for (const tier of tiers) {
    divisorByTier.set(tier, divisor);
    divisor *= Math.max(1, upCountByTier.get(tier) ?? 1);
  }

  // Down routes: from each destination's leaf switch, climb the tree recording the port that
  // leads back down. Several equal ports (trunks) are spread by LID.
  const seenFor = new Int32Array(nodes.length).fill(-1);
  const candidates = new Map<number, number[]>();
  for (const dest of nodes) {
    if (dest.type === 'switch') continue;
    const lid = dest.lid;
    let frontier: number[] = [];
    for (const port of dest.ports) {
      if (!port || port.link < 0) continue;
      const link = fabric.links[port.link];
      if (!link) continue;
      const far = link.a.node === dest.name && link.a.port === port.number ? link.b : link.a;
      const leaf = fabric.nodeByName.get(far.node) as FabricNode;
      if (leaf.type !== 'switch') continue;
      const lft = tables.bySwitch[leaf.index] as Uint8Array;
      if (lft[lid] === NO_ROUTE) lft[lid] = far.port;
      if (seenFor[leaf.index] !== dest.index) {
        seenFor[leaf.index] = dest.index;
        frontier.push(leaf.index);
      }
    }
    while (frontier.length > 0) {
      candidates.clear();
      for (const child of frontier) {
        for (const edge of parents[child] ?? []) {
          if (seenFor[edge.parent] === dest.index) continue;
          let list = candidates.get(edge.parent);
          if (!list) {
            list = [];
            candidates.set(edge.parent, list);
          }
          list.push(edge.parentPort);
        }
      }
      const next: number[] = [];
      for (const [parent, ports] of candidates) {
        seenFor[parent] = dest.index;
        const lft = tables.bySwitch[parent] as Uint8Array;
        const tier = nodes[parent]?.tier ?? 1;
        const spread = Math.floor(lid / (divisorByTier.get(tier + 1) ?? 1));
        lft[lid] = ports[spread % ports.length] as number;
        next.push(parent);
      }
      frontier = next;
    }
  }

  // Up routes for every destination a switch cannot reach downward.
  for (const node of nodes) {
    if (node.type !== 'switch') continue;
    const ups = upPorts[node.index] ?? [];
    if (ups.length === 0) continue;
    const lft = tables.bySwitch[node.index] as Uint8Array;
    const d = divisorByTier.get(node.tier) ?? 1;
    for (const dest of nodes) {
      if (dest.type === 'switch' || lft[dest.lid] !== NO_ROUTE) continue;
      lft[dest.lid] = ups[Math.floor(dest.lid / d) % ups.length] as number;
    }
  }
  return tables;
}
