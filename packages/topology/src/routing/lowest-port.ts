import { type FabricGraph, fabricGraph, hopsTo, lidsOf } from '../model/graph.ts';
import { type Fabric, type FabricNode, firstCabledPort } from '../model/model.ts';
import { emptyTables, type ForwardingTables } from './tables.ts';

/** Engine name of the tables below: what a sweep falls back to when its engine gives up. */
export const LOWEST_PORT_MIN_HOP = 'minhop-fallback';

/** Min-hop tables, lowest port wins: the sweep's fallback when the engine rejects what is left of the fabric. */
export function lowestPortMinHopRouting(fabric: Fabric): ForwardingTables {
  const tables = emptyTables(fabric, LOWEST_PORT_MIN_HOP);
  const g = fabricGraph(fabric);
  const switches = fabric.nodes.filter((n) => n.type === 'switch');
  const distance = new Int32Array(fabric.nodes.length);
  const byLeaf = hostsByLeaf(fabric, g, (node) => routeOneNode(g, tables, switches, distance, node));
  const leafRouting = new LeafRouting(fabric, g, tables, switches);
  for (const [leaf, hosts] of byLeaf) leafRouting.route(leaf, hosts);
  return tables;
}

/** Hosts hanging off exactly one switch port, by that switch; `other` gets every other cabled node. */
function hostsByLeaf(
  fabric: Fabric,
  g: FabricGraph,
  other: (node: FabricNode) => void,
): Map<number, FabricNode[]> {
  const byLeaf = new Map<number, FabricNode[]>();
  for (const node of fabric.nodes) {
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
      other(node);
    }
  }
  return byLeaf;
}

/** A node cabled to several ports (or to no switch): a search of its own. */
function routeOneNode(
  g: FabricGraph,
  tables: ForwardingTables,
  switches: FabricNode[],
  distance: Int32Array,
  dest: FabricNode,
): void {
  hopsTo(g, dest.index, distance);
  // At each switch, the lowest port toward a node one hop closer that may carry the packet on.
  const lids = lidsOf(dest);
  for (const s of switches) {
    const here = distance[s.index] as number;
    if (here <= 0) continue;
    const lft = tables.bySwitch[s.index] as Uint8Array;
    for (let port = 1; port <= s.portCount; port++) {
      const c = g.outChannel[(g.portOffset[s.index] as number) + port] as number;
      if (c < 0) continue;
      const peer = g.channelToNode[c] as number;
      const closer = peer === dest.index ? here === 1 : g.isSwitch[peer] === 1 && distance[peer] === here - 1;
      if (!closer) continue;
      for (const lid of lids) lft[lid] = port;
      break;
    }
  }
}

/** Per leaf: every switch's lowest port toward it, found by walking ISLs in port order. */
class LeafRouting {
  private readonly switchIndex: Int32Array;
  private readonly lfts: Uint8Array[];
  private readonly adjStart: Int32Array;
  private readonly port: Int32Array;
  private readonly peerOf: Int32Array;
  private readonly hops: Int32Array;
  private readonly queue: Int32Array;
  private readonly toward: Int32Array;

  constructor(
    fabric: Fabric,
    private readonly g: FabricGraph,
    tables: ForwardingTables,
    switches: FabricNode[],
  ) {
    const count = fabric.nodes.length;
    this.switchIndex = Int32Array.from(switches, (n) => n.index);
    this.lfts = switches.map((n) => tables.bySwitch[n.index] as Uint8Array);
    this.adjStart = new Int32Array(count + 1);
    const adjPort: number[] = [];
    const adjPeer: number[] = [];
    for (let n = 0; n < count; n++) {
      if (g.isSwitch[n] === 1) {
        for (let p = (g.portOffset[n] as number) + 1; p < (g.portOffset[n + 1] as number); p++) {
          const c = g.outChannel[p] as number;
          if (c < 0 || g.isSwitch[g.channelToNode[c] as number] !== 1) continue;
          adjPort.push(p - (g.portOffset[n] as number));
          adjPeer.push(g.channelToNode[c] as number);
        }
      }
      this.adjStart[n + 1] = adjPort.length;
    }
    this.port = Int32Array.from(adjPort);
    this.peerOf = Int32Array.from(adjPeer);
    this.hops = new Int32Array(count);
    this.queue = new Int32Array(count);
    this.toward = new Int32Array(switches.length);
  }

  route(leaf: number, hosts: FabricNode[]): void {
    this.searchFrom(leaf);
    this.writeRows(leaf, hosts);
  }

  /** Hops from `leaf` to every switch, then each switch's lowest port one hop closer (`toward`). */
  private searchFrom(leaf: number): void {
    const { adjStart, peerOf, hops, queue, toward, switchIndex, port } = this;
    hops.fill(-1);
    hops[leaf] = 0;
    queue[0] = leaf;
    for (let head = 0, tail = 1; head < tail; head++) {
      const n = queue[head] as number;
      const d = (hops[n] as number) + 1;
      for (let i = adjStart[n] as number; i < (adjStart[n + 1] as number); i++) {
        const peer = peerOf[i] as number;
        if (hops[peer] !== -1) continue;
        hops[peer] = d;
        queue[tail++] = peer;
      }
    }
    for (let k = 0; k < switchIndex.length; k++) {
      const n = switchIndex[k] as number;
      const here = hops[n] as number;
      toward[k] = 0;
      if (here <= 0) continue;
      for (let i = adjStart[n] as number; i < (adjStart[n + 1] as number); i++) {
        if (hops[peerOf[i] as number] === here - 1) {
          toward[k] = port[i] as number;
          break;
        }
      }
    }
  }

  /** Switch by switch, so each table row is written in one place. */
  private writeRows(leaf: number, hosts: FabricNode[]): void {
    const { g, switchIndex, lfts, toward } = this;
    const lids: number[] = [];
    const downs: number[] = [];
    for (const host of hosts) {
      const down = g.channelToPort[
        g.outChannel[(g.portOffset[host.index] as number) + firstCabledPort(host)] as number
      ] as number;
      for (const lid of lidsOf(host)) {
        lids.push(lid);
        downs.push(down);
      }
    }
    for (let k = 0; k < switchIndex.length; k++) {
      const lft = lfts[k] as Uint8Array;
      if (switchIndex[k] === leaf) {
        for (let j = 0; j < lids.length; j++) lft[lids[j] as number] = downs[j] as number;
        continue;
      }
      const out = toward[k] as number;
      if (out === 0) continue;
      for (let j = 0; j < lids.length; j++) lft[lids[j] as number] = out;
    }
  }
}
