/** Topologies as plain data: nodes by NodeDescription (GUID where shared), never LID; cables by two ports. */
import { FabricBuilder } from '../model/builder.ts';
import type { Fabric, FabricType, LinkKind, NodeType } from '../model/model.ts';

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
  /** The subnet it was discovered on, where the fabric holds several (FabricNode.subnet). */
  subnet?: string;
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

/** Each node's unique identity: NodeDescription, else GUID, else type and GUID (SHARP shares its switch's). */
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
      ...(n.subnet !== undefined ? { subnet: n.subnet } : {}),
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

/** A snapshot as a Fabric; clashing LIDs are reassigned and cables to missing ports left out. */
export function fabricOfSnapshot(snapshot: TopologySnapshot): Fabric {
  const builder = new FabricBuilder(snapshot.name, snapshot.fabricType);
  const nameOf = new Map<string, string>();
  const names = new Set<string>();
  const lids = new Set<string>();
  const maxPort = new Map<string, number>();
  for (const l of snapshot.links) {
    for (const end of [l.a, l.b]) maxPort.set(end.node, Math.max(maxPort.get(end.node) ?? 0, end.port));
  }
  for (const n of snapshot.nodes) {
    let name = names.has(n.name) ? `${n.name} (${n.guid})` : n.name;
    for (let k = 2; names.has(name); k++) name = `${n.name} (${n.id}) #${k}`;
    names.add(name);
    nameOf.set(n.id, name);
    // LIDs are unique within a subnet: two subnets' nodes may share one.
    const lidKey = `${n.lid} ${n.subnet ?? ''}`;
    const lid = n.lid > 0 && !lids.has(lidKey) ? n.lid : 0;
    if (lid > 0) lids.add(lidKey);
    builder.addNode({
      name,
      type: n.type,
      guid: n.guid,
      portCount: Math.min(254, Math.max(1, n.portCount, maxPort.get(n.id) ?? 0)),
      tier: n.tier,
      lid,
      ...(n.description !== undefined ? { description: n.description } : {}),
      ...(n.subnet !== undefined ? { subnet: n.subnet } : {}),
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
