import { type FabricGraph, fabricGraph } from '../model/graph.ts';
import type { Fabric, FabricNode } from '../model/model.ts';
import { RoutingError } from './errors.ts';
import { emptyTables, type ForwardingTables, NO_ROUTE } from './tables.ts';

/**
 * Fat-tree routing, up-port floor(LID / D) mod K, as OpenSM's ftree: Zahavi, "D-Mod-K Routing Providing Non-Blocking
 * Traffic for Shift Permutations on Real Life Fat Trees" (CCIT 776, Technion, 2010). Non-fat-trees throw RoutingError.
 */
export function fatTreeRouting(fabric: Fabric): ForwardingTables {
  const tables = emptyTables(fabric, 'fattree');
  const g = fabricGraph(fabric);
  const tree = treePorts(fabric, g);
  const dests = destinations(fabric, g);
  fillUpRoutes(fabric, tables, tree, dests.lids);
  fillDownRoutes(fabric, tables, tree, dests);
  checkTopSwitches(fabric, tables, tree, dests.lids);
  return tables;
}

/** Each switch's ports toward the tiers above and below, and each tier's D. */
interface TreePorts {
  switches: FabricNode[];
  upPorts: number[][];
  /** Down-ports as flat pairs (port, child switch index). */
  downPorts: number[][];
  /** The tiers present, lowest first. */
  tiers: number[];
  /** D for each tier: the product of the up-port counts of the tiers below it. */
  divisorByTier: Map<number, number>;
}

function treePorts(fabric: Fabric, g: FabricGraph): TreePorts {
  const { nodes } = fabric;
  const upPorts: number[][] = nodes.map(() => []);
  const downPorts: number[][] = nodes.map(() => []);
  const switches = nodes.filter((n) => n.type === 'switch');
  for (const node of switches) {
    const base = g.portOffset[node.index] as number;
    for (let p = 1; p <= node.portCount; p++) {
      const c = g.outChannel[base + p] as number;
      if (c < 0) continue;
      const peer = nodes[g.channelToNode[c] as number] as FabricNode;
      if (peer.type !== 'switch') continue;
      if (peer.tier > node.tier) (upPorts[node.index] as number[]).push(p);
      else if (peer.tier < node.tier) (downPorts[node.index] as number[]).push(p, peer.index);
    }
  }
  const upCountByTier = new Map<number, number>();
  for (const node of switches) {
    const count = upPorts[node.index]?.length ?? 0;
    upCountByTier.set(node.tier, Math.max(upCountByTier.get(node.tier) ?? 0, count));
  }
  const divisorByTier = new Map<number, number>();
  let divisor = 1;
  const tiers = [...upCountByTier.keys()].sort((a, b) => a - b);
  for (const tier of tiers) {
    divisorByTier.set(tier, divisor);
    divisor *= Math.max(1, upCountByTier.get(tier) ?? 1);
  }
  return { switches, upPorts, downPorts, tiers, divisorByTier };
}

/** Every LID of a host or router cabled to a switch, and per switch the LIDs cabled to it and their ports. */
interface Destinations {
  lids: Int32Array;
  attached: number[][];
  attachedPort: number[][];
}

function destinations(fabric: Fabric, g: FabricGraph): Destinations {
  const { nodes } = fabric;
  const destLids: number[] = [];
  const attached: number[][] = nodes.map(() => []);
  const attachedPort: number[][] = nodes.map(() => []);
  for (const dest of nodes) {
    if (dest.type === 'switch') continue;
    const span = 1 << (dest.lmc ?? 0);
    const base = g.portOffset[dest.index] as number;
    const lids = new Set<number>();
    for (let p = 1; p <= dest.portCount; p++) {
      const c = g.outChannel[base + p] as number;
      const port = dest.ports[p];
      if (c < 0 || !port) continue;
      const leaf = g.channelToNode[c] as number;
      if (g.isSwitch[leaf] !== 1) continue;
      for (let lid = port.lid; lid < port.lid + span; lid++) {
        lids.add(lid);
        const list = attached[leaf] as number[];
        if (!list.includes(lid)) {
          list.push(lid);
          (attachedPort[leaf] as number[]).push(g.channelToPort[c] as number);
        }
      }
    }
    for (const lid of lids) destLids.push(lid);
  }
  return { lids: Int32Array.from(destLids), attached, attachedPort };
}

/** Up routes depend only on tier and up-ports, so one template row per pair is copied; down routes overwrite. */
function fillUpRoutes(fabric: Fabric, tables: ForwardingTables, tree: TreePorts, lids: Int32Array): void {
  const templates = new Map<string, Uint8Array>();
  for (const node of tree.switches) {
    const ups = tree.upPorts[node.index] as number[];
    if (ups.length === 0) continue;
    const d = tree.divisorByTier.get(node.tier) ?? 1;
    const key = `${d}|${ups.join(',')}`;
    let template = templates.get(key);
    if (!template) {
      template = new Uint8Array(fabric.maxLid + 1).fill(NO_ROUTE);
      for (let i = 0; i < lids.length; i++) {
        const lid = lids[i] as number;
        template[lid] = ups[Math.floor(lid / d) % ups.length] as number;
      }
      templates.set(key, template);
    }
    const lft = tables.bySwitch[node.index] as Uint8Array;
    lft.set(template);
    lft[node.lid] = 0;
  }
}

/** Scratch rows by LID, shared by every switch's down routes. */
interface DownScratch {
  /** The LIDs below each switch that has up-ports. */
  below: Int32Array[];
  owner: Int32Array;
  count: Uint16Array;
  index: Uint16Array;
}

/** Down routes, tier by tier from the leaves: the LIDs below a switch are those attached to it and below its children. */
function fillDownRoutes(
  fabric: Fabric,
  tables: ForwardingTables,
  tree: TreePorts,
  dests: Destinations,
): void {
  const size = fabric.maxLid + 1;
  const scratch: DownScratch = {
    below: new Array(fabric.nodes.length),
    owner: new Int32Array(size).fill(-1),
    count: new Uint16Array(size),
    index: new Uint16Array(size),
  };
  for (const tier of tree.tiers) {
    for (const node of tree.switches) {
      if (node.tier === tier) fillSwitchDownRoutes(node.index, tier, tables, tree, dests, scratch);
    }
  }
}

/** One switch's down routes: of n candidates the (floor(LID / D') mod n)-th wins. */
function fillSwitchDownRoutes(
  me: number,
  tier: number,
  tables: ForwardingTables,
  tree: TreePorts,
  dests: Destinations,
  { below, owner, count, index }: DownScratch,
): void {
  const lft = tables.bySwitch[me] as Uint8Array;
  const downs = tree.downPorts[me] as number[];
  const hasUps = (tree.upPorts[me] as number[]).length > 0;
  const own = dests.attached[me] as number[];
  const ownPorts = dests.attachedPort[me] as number[];
  const collected: number[] = hasUps ? [...own] : [];
  for (let i = 0; i < own.length; i++) {
    const lid = own[i] as number;
    lft[lid] = ownPorts[i] as number;
    owner[lid] = me;
    count[lid] = 0;
  }
  const multi: number[] = [];
  for (let i = 0; i < downs.length; i += 2) {
    const port = downs[i] as number;
    const child = below[downs[i + 1] as number] as Int32Array;
    for (let j = 0; j < child.length; j++) {
      const lid = child[j] as number;
      if (owner[lid] !== me) {
        owner[lid] = me;
        count[lid] = 1;
        lft[lid] = port;
        if (hasUps) collected.push(lid);
      } else {
        const n = count[lid] as number;
        if (n === 0) continue; // attached here
        count[lid] = n + 1;
        if (n === 1) multi.push(lid);
      }
    }
  }
  if (multi.length > 0) {
    const d = tree.divisorByTier.get(tier + 1) ?? 1;
    for (let i = 0; i < downs.length; i += 2) {
      const port = downs[i] as number;
      const child = below[downs[i + 1] as number] as Int32Array;
      for (let j = 0; j < child.length; j++) {
        const lid = child[j] as number;
        const n = count[lid] as number;
        if (n < 2) continue;
        const k = index[lid] as number;
        if (k === Math.floor(lid / d) % n) lft[lid] = port;
        index[lid] = k + 1;
      }
    }
    for (const lid of multi) index[lid] = 0;
  }
  if (hasUps) below[me] = Int32Array.from(collected);
}

/** Switches with no up-port must reach every destination downward. */
function checkTopSwitches(fabric: Fabric, tables: ForwardingTables, tree: TreePorts, lids: Int32Array): void {
  for (const node of tree.switches) {
    if ((tree.upPorts[node.index] as number[]).length > 0) continue;
    const lft = tables.bySwitch[node.index] as Uint8Array;
    for (let i = 0; i < lids.length; i++) {
      const lid = lids[i] as number;
      if (lft[lid] === NO_ROUTE) {
        const dest = fabric.nodes[fabric.nodeByLid[lid] as number] as FabricNode;
        throw new RoutingError(
          `fattree: switch "${node.name}" has no up*/down* path to LID ${lid} ("${dest.name}"); ` +
            'the fabric is not a fat tree (use minhop)',
        );
      }
    }
  }
}
