/**
 * What changed between two topologies: two discoveries of a live fabric, or the intended design
 * and what is cabled (drift.ts). Nodes are known by their NodeDescription (their name where they
 * have none), or by their GUID where several share one description, never by LID or list order; a
 * cable by its two ports. Pure: topologies in, a list of changes out, and that list applied to the
 * first gives the second (applyTopologyChanges).
 */
import { FabricBuilder } from './builder.ts';
import type { Fabric, FabricType, LinkKind, NodeType } from './model.ts';

/** A node as a topology version keeps it; `id` is how two versions know it is the same node. */
export interface TopologyNodeRecord {
  id: string;
  /** Its name in the fabric it was read from (a link id's node part). */
  name: string;
  type: NodeType;
  guid: string;
  lid: number;
  tier: number;
  portCount: number;
  description?: string;
}

/** One end of a cable: a node's id and a port number. */
export interface TopologyEnd {
  node: string;
  port: number;
}

/** A cable as a topology version keeps it, ends by node id in the order the fabric declared them. */
export interface TopologyLinkRecord {
  a: TopologyEnd;
  b: TopologyEnd;
  kind: LinkKind;
  rateGbps: number;
  /** Width × speed as discovery printed it (`4xEDR`), when known. */
  widthSpeed?: string;
  /** The cable's network where it differs from the fabric's (a router's NIC). */
  fabricType?: FabricType;
}

/** A whole topology as plain data (JSON as it is): what versions are kept and written as. */
export interface TopologySnapshot {
  name: string;
  fabricType: FabricType;
  nodes: TopologyNodeRecord[];
  links: TopologyLinkRecord[];
}

export type TopologyChange =
  | { kind: 'node-appeared'; node: TopologyNodeRecord }
  | { kind: 'node-disappeared'; node: TopologyNodeRecord }
  /** Same node, other LID, GUID, type, port count, tier or description. */
  | { kind: 'node-changed'; before: TopologyNodeRecord; after: TopologyNodeRecord }
  | { kind: 'link-added'; link: TopologyLinkRecord }
  | { kind: 'link-removed'; link: TopologyLinkRecord }
  /** The cable at `port` now ends at another port (`before` is gone, `after` is new). */
  | { kind: 'link-moved'; port: TopologyEnd; before: TopologyLinkRecord; after: TopologyLinkRecord }
  /** Same two ports, another width, speed or rate (or kind). */
  | { kind: 'link-rate-changed'; before: TopologyLinkRecord; after: TopologyLinkRecord };

export type TopologyChangeKind = TopologyChange['kind'];
export const TOPOLOGY_CHANGE_KINDS: readonly TopologyChangeKind[] = [
  'node-appeared',
  'node-disappeared',
  'node-changed',
  'link-added',
  'link-removed',
  'link-moved',
  'link-rate-changed',
];

/**
 * Each node's identity across topologies: its NodeDescription (its name where it has none) when no
 * other node of the fabric has the same one; else its GUID (two unconfigured HCAs both called
 * "MT4123 ConnectX6 Mellanox Technologies"); else its type and GUID (a SHARP Aggregation Node
 * shares its switch's GUID). Always unique within the fabric.
 */
export function nodeIdentities(fabric: Pick<Fabric, 'nodes'>): Map<string, string> {
  const label = (n: Fabric['nodes'][number]) => n.description?.trim() || n.name;
  const count = (keys: string[]) => {
    const seen = new Map<string, number>();
    for (const k of keys) seen.set(k, (seen.get(k) ?? 0) + 1);
    return seen;
  };
  const labels = count(fabric.nodes.map(label));
  const guids = count(fabric.nodes.map((n) => n.guid));
  const ids = new Map<string, string>();
  const taken = new Set<string>();
  const candidates = fabric.nodes.map((n) => {
    const l = label(n);
    if (labels.get(l) === 1) return l;
    return guids.get(n.guid) === 1 ? n.guid : `${n.type} ${n.guid}`;
  });
  // A description equal to another node's GUID cannot take its id: the fabric's name (unique) then.
  const counted = count(candidates);
  fabric.nodes.forEach((n, i) => {
    let id = candidates[i] as string;
    if (counted.get(id) !== 1 || taken.has(id)) id = n.name;
    for (let k = 2; taken.has(id); k++) id = `${n.name} #${k}`;
    taken.add(id);
    ids.set(n.name, id);
  });
  return ids;
}

/** The fabric as plain data, nodes and cable ends by identity (nodeIdentities). */
export function topologySnapshot(fabric: Fabric): TopologySnapshot {
  const ids = nodeIdentities(fabric);
  const idOf = (name: string) => ids.get(name) ?? name;
  return {
    name: fabric.name,
    fabricType: fabric.fabricType,
    nodes: fabric.nodes.map((n) => ({
      id: idOf(n.name),
      name: n.name,
      type: n.type,
      guid: n.guid,
      lid: n.lid,
      tier: n.tier,
      portCount: n.portCount,
      ...(n.description !== undefined ? { description: n.description } : {}),
    })),
    links: fabric.links.map((l) => ({
      a: { node: idOf(l.a.node), port: l.a.port },
      b: { node: idOf(l.b.node), port: l.b.port },
      kind: l.kind,
      rateGbps: l.rateGbps,
      ...(l.widthSpeed !== undefined ? { widthSpeed: l.widthSpeed } : {}),
      ...(l.fabricType !== undefined && l.fabricType !== fabric.fabricType
        ? { fabricType: l.fabricType }
        : {}),
    })),
  };
}

/** `node/port` of an end, for people. */
export function endText(end: TopologyEnd): string {
  return `${end.node}/${end.port}`;
}

/** `a/port--b/port` of a cable, in its declared order, for people and event subjects. */
export function linkText(link: Pick<TopologyLinkRecord, 'a' | 'b'>): string {
  return `${endText(link.a)}--${endText(link.b)}`;
}

function endKey(end: TopologyEnd): string {
  return `${end.node}\u0000${end.port}`;
}

/** The cable's key whichever end was declared first. */
export function linkKey(link: Pick<TopologyLinkRecord, 'a' | 'b'>): string {
  const a = endKey(link.a);
  const b = endKey(link.b);
  return a < b ? `${a}\u0001${b}` : `${b}\u0001${a}`;
}

/** Width × speed as one spelling (`4x EDR`, `4xedr` → `4xEDR`). */
function widthSpeedKey(ws: string | undefined): string | undefined {
  return ws?.replace(/\s+/g, '').toUpperCase().replace(/X/, 'x');
}

/**
 * Whether two records of the same cable differ in what it carries: the width × speed where both
 * know it, else the rate; and its kind and network.
 */
function linkDiffers(x: TopologyLinkRecord, y: TopologyLinkRecord): boolean {
  const wx = widthSpeedKey(x.widthSpeed);
  const wy = widthSpeedKey(y.widthSpeed);
  if (wx !== undefined && wy !== undefined ? wx !== wy : x.rateGbps !== y.rateGbps) return true;
  return x.kind !== y.kind || x.fabricType !== y.fabricType;
}

function nodeDiffers(x: TopologyNodeRecord, y: TopologyNodeRecord): boolean {
  return (
    x.type !== y.type ||
    x.guid !== y.guid ||
    x.lid !== y.lid ||
    x.portCount !== y.portCount ||
    x.tier !== y.tier ||
    x.name !== y.name ||
    x.description !== y.description
  );
}

/**
 * The changes that turn topology `a` into `b`: nodes gone, cables gone, cables moved (a port of a
 * cable gone is in a new cable: one `link-moved` naming both), cables whose width, speed or rate
 * changed, cables and nodes new, nodes whose LID, GUID or other facts changed. Empty when they are
 * the same fabric, whatever order either lists nodes or cable ends in.
 */
export function diffTopology(a: TopologySnapshot, b: TopologySnapshot): TopologyChange[] {
  const changes: TopologyChange[] = [];
  const aNodes = new Map(a.nodes.map((n) => [n.id, n]));
  const bNodes = new Map(b.nodes.map((n) => [n.id, n]));
  for (const n of a.nodes) if (!bNodes.has(n.id)) changes.push({ kind: 'node-disappeared', node: n });

  const aLinks = new Map(a.links.map((l) => [linkKey(l), l]));
  const bLinks = new Map(b.links.map((l) => [linkKey(l), l]));
  const removed = a.links.filter((l) => !bLinks.has(linkKey(l)));
  const added = b.links.filter((l) => !aLinks.has(linkKey(l)));
  const addedAt = new Map<string, TopologyLinkRecord[]>();
  for (const l of added) {
    for (const end of [l.a, l.b]) {
      const key = endKey(end);
      const list = addedAt.get(key);
      if (list) list.push(l);
      else addedAt.set(key, [l]);
    }
  }
  const paired = new Set<TopologyLinkRecord>();
  const moved: TopologyChange[] = [];
  for (const r of removed) {
    let to: { port: TopologyEnd; after: TopologyLinkRecord } | undefined;
    for (const end of [r.a, r.b]) {
      const after = addedAt.get(endKey(end))?.find((l) => !paired.has(l));
      if (after) {
        to = { port: end, after };
        break;
      }
    }
    if (to) {
      paired.add(to.after);
      moved.push({ kind: 'link-moved', port: to.port, before: r, after: to.after });
    } else changes.push({ kind: 'link-removed', link: r });
  }
  changes.push(...moved);
  for (const [key, before] of aLinks) {
    const after = bLinks.get(key);
    if (after && linkDiffers(before, after)) changes.push({ kind: 'link-rate-changed', before, after });
  }
  for (const l of added) if (!paired.has(l)) changes.push({ kind: 'link-added', link: l });
  for (const n of b.nodes) {
    const before = aNodes.get(n.id);
    if (!before) changes.push({ kind: 'node-appeared', node: n });
    else if (nodeDiffers(before, n)) changes.push({ kind: 'node-changed', before, after: n });
  }
  return changes;
}

/** diffTopology of two fabrics. */
export function diffFabrics(a: Fabric, b: Fabric): TopologyChange[] {
  return diffTopology(topologySnapshot(a), topologySnapshot(b));
}

/**
 * `changes` (diffTopology's) applied to `base`: the nodes and cables of the topology they were
 * computed against. A change that does not fit (a cable removed that is not there) changes nothing.
 */
export function applyTopologyChanges(
  base: TopologySnapshot,
  changes: readonly TopologyChange[],
): TopologySnapshot {
  const nodes = new Map(base.nodes.map((n) => [n.id, n]));
  const links = new Map(base.links.map((l) => [linkKey(l), l]));
  for (const c of changes) {
    switch (c.kind) {
      case 'node-appeared':
        nodes.set(c.node.id, c.node);
        break;
      case 'node-disappeared':
        nodes.delete(c.node.id);
        break;
      case 'node-changed':
        nodes.set(c.after.id, c.after);
        break;
      case 'link-added':
        links.set(linkKey(c.link), c.link);
        break;
      case 'link-removed':
        links.delete(linkKey(c.link));
        break;
      case 'link-moved':
        links.delete(linkKey(c.before));
        links.set(linkKey(c.after), c.after);
        break;
      case 'link-rate-changed':
        links.set(linkKey(c.after), c.after);
        break;
    }
  }
  return {
    name: base.name,
    fabricType: base.fabricType,
    nodes: [...nodes.values()],
    links: [...links.values()],
  };
}

/**
 * A snapshot as a Fabric (for answering what the fabric was at an instant). Node names are the
 * records' names (made unique with the GUID where two versions' nodes share one); a LID two nodes
 * claim is given to the first and assigned afresh to the other; a cable to a node or port that is
 * not there, or to a port already cabled, is left out.
 */
export function fabricOfSnapshot(snapshot: TopologySnapshot): Fabric {
  const builder = new FabricBuilder(snapshot.name, snapshot.fabricType);
  const nameOf = new Map<string, string>();
  const names = new Set<string>();
  const lids = new Set<number>();
  const maxPort = new Map<string, number>();
  for (const l of snapshot.links) {
    for (const end of [l.a, l.b]) maxPort.set(end.node, Math.max(maxPort.get(end.node) ?? 0, end.port));
  }
  for (const n of snapshot.nodes) {
    let name = names.has(n.name) ? `${n.name} (${n.guid})` : n.name;
    for (let k = 2; names.has(name); k++) name = `${n.name} (${n.id}) #${k}`;
    names.add(name);
    nameOf.set(n.id, name);
    const lid = n.lid > 0 && !lids.has(n.lid) ? n.lid : 0;
    if (lid > 0) lids.add(lid);
    builder.addNode({
      name,
      type: n.type,
      guid: n.guid,
      portCount: Math.min(254, Math.max(1, n.portCount, maxPort.get(n.id) ?? 0)),
      tier: n.tier,
      lid,
      ...(n.description !== undefined ? { description: n.description } : {}),
    });
  }
  for (const l of snapshot.links) {
    const a = nameOf.get(l.a.node);
    const b = nameOf.get(l.b.node);
    if (a === undefined || b === undefined) continue;
    try {
      builder.connect(a, l.a.port, b, l.b.port, l.rateGbps, l.kind, {
        ...(l.widthSpeed !== undefined ? { widthSpeed: l.widthSpeed } : {}),
        ...(l.fabricType !== undefined ? { fabricType: l.fabricType } : {}),
      });
    } catch {
      // a port cabled twice or out of range: the version is kept as far as it is consistent
    }
  }
  return builder.build();
}

function rateText(link: TopologyLinkRecord): string {
  return link.widthSpeed ?? `${link.rateGbps} Gb/s`;
}

/** One line for people: "link removed edge1/3--core1/1", "edge1/3 moved: core1/1 → core1/5". */
export function describeTopologyChange(change: TopologyChange): { subject: string; detail: string } {
  switch (change.kind) {
    case 'node-appeared':
      return { subject: change.node.id, detail: `node appeared (${change.node.type}, ${change.node.guid})` };
    case 'node-disappeared':
      return {
        subject: change.node.id,
        detail: `node disappeared (${change.node.type}, ${change.node.guid})`,
      };
    case 'node-changed': {
      const { before: x, after: y } = change;
      const parts: string[] = [];
      if (x.lid !== y.lid) parts.push(`LID ${x.lid} → ${y.lid}`);
      if (x.guid !== y.guid) parts.push(`GUID ${x.guid} → ${y.guid}`);
      if (x.type !== y.type) parts.push(`type ${x.type} → ${y.type}`);
      if (x.portCount !== y.portCount) parts.push(`ports ${x.portCount} → ${y.portCount}`);
      if (x.tier !== y.tier) parts.push(`tier ${x.tier} → ${y.tier}`);
      if (x.name !== y.name || x.description !== y.description) parts.push('renamed');
      return { subject: y.id, detail: `node changed: ${parts.join(', ')}` };
    }
    case 'link-added':
      return { subject: linkText(change.link), detail: `link added (${rateText(change.link)})` };
    case 'link-removed':
      return { subject: linkText(change.link), detail: 'link removed' };
    case 'link-moved': {
      const far = (l: TopologyLinkRecord) =>
        endKey(l.a) === endKey(change.port) ? endText(l.b) : endText(l.a);
      return {
        subject: endText(change.port),
        detail: `link moved: ${endText(change.port)} was cabled to ${far(change.before)}, now to ${far(change.after)}`,
      };
    }
    case 'link-rate-changed':
      return {
        subject: linkText(change.after),
        detail: `link speed changed: ${rateText(change.before)} → ${rateText(change.after)}`,
      };
  }
}

const NOUNS: Record<TopologyChangeKind, [singular: string, plural: string]> = {
  'link-removed': ['1 link removed', 'links removed'],
  'link-moved': ['1 link moved', 'links moved'],
  'link-added': ['1 link added', 'links added'],
  'link-rate-changed': ['1 link changed speed', 'links changed speed'],
  'node-disappeared': ['1 node disappeared', 'nodes disappeared'],
  'node-appeared': ['1 node appeared', 'nodes appeared'],
  'node-changed': ['1 node changed', 'nodes changed'],
};

/** "1 link removed, 2 links added"; "no change" when there is none. */
export function summarizeTopologyChanges(changes: readonly TopologyChange[]): string {
  const counts = new Map<TopologyChangeKind, number>();
  for (const c of changes) counts.set(c.kind, (counts.get(c.kind) ?? 0) + 1);
  const parts: string[] = [];
  for (const [kind, [one, many]] of Object.entries(NOUNS) as [TopologyChangeKind, [string, string]][]) {
    const n = counts.get(kind) ?? 0;
    if (n > 0) parts.push(n === 1 ? one : `${n} ${many}`);
  }
  return parts.length === 0 ? 'no change' : parts.join(', ');
}
