import { fabricGraph, lidsOf } from '../graph.ts';
import type { Fabric, FabricNode } from '../model.ts';
import { emptyTables, type ForwardingTables } from './tables.ts';

/** Engine name of the tables below: what a sweep falls back to when its engine gives up. */
export const LOWEST_PORT_MIN_HOP = 'minhop-fallback';

/**
 * Min-hop tables with the simplest tie-break: every switch sends each destination out of its
 * lowest-numbered port on a shortest path (hop distance through switches only). This is what the
 * fabric manager's sweep falls back to when its engine rejects what is left of the fabric (a fat
 * tree that lost a link is no longer one, and fattree refuses it, as OpenSM's ftree does before its
 * minhop fallback). Cheaper than minhop's port balancing: one breadth-first search per leaf switch
 * serves every host hanging off it, so 27,648 hosts cost 1,152 searches, not 27,648.
 */
export function lowestPortMinHopRouting(fabric: Fabric): ForwardingTables {
  const tables = emptyTables(fabric, LOWEST_PORT_MIN_HOP);
  const g = fabricGraph(fabric);
  const { nodes } = fabric;
  const switches = nodes.filter((n) => n.type === 'switch');
  const distance = new Int32Array(nodes.length);

  // Hop distances from `source` through switches only (the source itself may be a host).
  const search = (source: number) => {
    distance.fill(-1);
    distance[source] = 0;
    let frontier = [source];
    for (let d = 1; frontier.length > 0; d++) {
      const next: number[] = [];
      for (const n of frontier) {
        if (n !== source && g.isSwitch[n] !== 1) continue;
        for (let p = (g.portOffset[n] as number) + 1; p < (g.portOffset[n + 1] as number); p++) {
          const c = g.outChannel[p] as number;
          if (c < 0) continue;
          const peer = g.channelToNode[c] as number;
          if (distance[peer] !== -1) continue;
          distance[peer] = d;
          next.push(peer);
        }
      }
      frontier = next;
    }
  };
  // At each switch, the lowest port toward a node one hop closer that may carry the packet on.
  const fill = (dest: FabricNode, offset: number, lids: number[]) => {
    for (const s of switches) {
      const here = (distance[s.index] as number) + offset;
      if (here <= 0 || distance[s.index] === -1) continue;
      const lft = tables.bySwitch[s.index] as Uint8Array;
      for (let port = 1; port <= s.portCount; port++) {
        const c = g.outChannel[(g.portOffset[s.index] as number) + port] as number;
        if (c < 0) continue;
        const peer = g.channelToNode[c] as number;
        const closer =
          peer === dest.index
            ? here === 1
            : g.isSwitch[peer] === 1 && (distance[peer] as number) + offset === here - 1;
        if (!closer) continue;
        for (const lid of lids) lft[lid] = port;
        break;
      }
    }
  };

  // Hosts hanging off exactly one switch port share that leaf's search.
  const byLeaf = new Map<number, FabricNode[]>();
  for (const node of nodes) {
    if (node.type === 'switch') continue;
    let leaf = -1;
    let cabled = 0;
    for (
      let p = (g.portOffset[node.index] as number) + 1;
      p < (g.portOffset[node.index + 1] as number);
      p++
    ) {
      const c = g.outChannel[p] as number;
      if (c < 0) continue;
      cabled++;
      leaf = g.channelToNode[c] as number;
    }
    if (cabled === 1 && g.isSwitch[leaf] === 1) {
      const group = byLeaf.get(leaf);
      if (group) group.push(node);
      else byLeaf.set(leaf, [node]);
    } else if (cabled > 0) {
      search(node.index);
      fill(node, 0, lidsOf(node));
    }
  }
  for (const [leaf, hosts] of byLeaf) {
    search(leaf);
    // Distance to a host below this leaf = distance to the leaf + 1.
    for (const host of hosts) fill(host, 1, lidsOf(host));
  }
  return tables;
}
