import { fabricGraph } from '../model/graph.ts';
import type { Fabric, FabricNode } from '../model/model.ts';
import { type ForwardingTables, NO_ROUTE } from './tables.ts';

/** Min-hop routing, fewest routes per port wins: OpenSM's default (osm_switch.c `osm_switch_recommend_path`). */
export function minHopRouting(fabric: Fabric): ForwardingTables {
  const { nodes } = fabric;
  const g = fabricGraph(fabric);
  const transit = new Uint8Array(nodes.length);
  const bySwitch: (Uint8Array | undefined)[] = new Array(nodes.length).fill(undefined);
  for (const node of nodes) {
    if (node.type === 'host') continue;
    transit[node.index] = 1;
    const lft = new Uint8Array(fabric.maxLid + 1).fill(NO_ROUTE);
    if (node.type === 'switch') lft[node.lid] = 0;
    bySwitch[node.index] = lft;
  }
  const load = new Int32Array(g.outChannel.length);

  // Destination groups: LIDs whose node hangs off the same (transit node, port) attachments.
  const groups = new Map<string, { attach: number[]; lids: number[] }>();
  for (const dest of nodes) {
    const span = 1 << (dest.lmc ?? 0);
    const base = g.portOffset[dest.index] as number;
    if (dest.type === 'switch') {
      // A switch's own LID: routed like a destination attached to itself.
      const key = `s${dest.index}`;
      groups.set(key, { attach: [dest.index, 0], lids: [dest.lid] });
      continue;
    }
    const byLid = new Map<number, number[]>();
    for (let p = 1; p <= dest.portCount; p++) {
      const c = g.outChannel[base + p] as number;
      const port = dest.ports[p];
      if (c < 0 || !port) continue;
      const peer = g.channelToNode[c] as number;
      if (transit[peer] !== 1) continue;
      for (let lid = port.lid; lid < port.lid + span; lid++) {
        const list = byLid.get(lid) ?? [];
        byLid.set(lid, list);
        list.push(peer, g.channelToPort[c] as number);
      }
    }
    // A router is its own destination: its table says port 0 for its own LIDs.
    for (const [lid, attach] of byLid) {
      if (dest.type === 'router') (bySwitch[dest.index] as Uint8Array)[lid] = 0;
      const key = attach.join(',');
      const group = groups.get(key) ?? { attach, lids: [] };
      groups.set(key, group);
      group.lids.push(lid);
    }
  }

  const dist = new Int32Array(nodes.length);
  const queue = new Int32Array(nodes.length);
  const candidates = new Int32Array(256);
  for (const { attach, lids } of groups.values()) {
    dist.fill(-1);
    let head = 0;
    let tail = 0;
    for (let i = 0; i < attach.length; i += 2) {
      const n = attach[i] as number;
      if (dist[n] !== 0) {
        dist[n] = 0;
        queue[tail++] = n;
      }
    }
    while (head < tail) {
      const u = queue[head++] as number;
      const node = nodes[u] as FabricNode;
      const base = g.portOffset[u] as number;
      for (let p = 1; p <= node.portCount; p++) {
        const c = g.outChannel[base + p] as number;
        if (c < 0) continue;
        const v = g.channelToNode[c] as number;
        if (transit[v] === 1 && (dist[v] as number) < 0) {
          dist[v] = (dist[u] as number) + 1;
          queue[tail++] = v;
        }
      }
    }
    for (let q = 0; q < tail; q++) {
      const t = queue[q] as number;
      const lft = bySwitch[t] as Uint8Array;
      const node = nodes[t] as FabricNode;
      const base = g.portOffset[t] as number;
      let count = 0;
      if (dist[t] === 0) {
        for (let i = 0; i < attach.length; i += 2)
          if (attach[i] === t) candidates[count++] = attach[i + 1] as number;
      } else {
        const want = (dist[t] as number) - 1;
        for (let p = 1; p <= node.portCount; p++) {
          const c = g.outChannel[base + p] as number;
          if (c >= 0 && dist[g.channelToNode[c] as number] === want) candidates[count++] = p;
        }
      }
      for (const lid of lids) {
        if (lft[lid] !== NO_ROUTE) continue;
        let best = candidates[0] as number;
        let bestLoad = load[base + best] as number;
        for (let i = 1; i < count; i++) {
          const p = candidates[i] as number;
          const l = load[base + p] as number;
          if (l < bestLoad) {
            best = p;
            bestLoad = l;
          }
        }
        lft[lid] = best;
        if (best > 0) load[base + best] = bestLoad + 1;
      }
    }
  }
  return { engine: 'minhop', bySwitch };
}
