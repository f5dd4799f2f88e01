/** What changed between two topologies, such that applying it to the first gives the second. */
import type { Fabric } from '../model/model.ts';
import {
  type TopologyEnd,
  type TopologyLinkRecord,
  type TopologyNodeRecord,
  type TopologySnapshot,
  topologySnapshot,
} from './snapshot.ts';

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

export function endKey(end: TopologyEnd): string {
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

/** Whether two records of one cable differ in width × speed (else rate), kind or network. */
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

/** The changes that turn `a` into `b`; empty for the same fabric in any order. */
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

/** `changes` applied to `base`; one that does not fit changes nothing. */
export function applyTopologyChanges(
  base: TopologySnapshot,
  changes: readonly TopologyChange[],
): TopologySnapshot {
  const nodes = new Map(base.nodes.map((n) => [n.id, n]));
  const links = new Map(base.links.map((l) => [linkKey(l), l]));
  for (const c of changes) {
    if (c.kind === 'node-appeared') nodes.set(c.node.id, c.node);
    else if (c.kind === 'node-disappeared') nodes.delete(c.node.id);
    else if (c.kind === 'node-changed') nodes.set(c.after.id, c.after);
    else if (c.kind === 'link-added') links.set(linkKey(c.link), c.link);
    else if (c.kind === 'link-removed') links.delete(linkKey(c.link));
    else {
      // Moved or changed speed: the cable after replaces the one before.
      if (c.kind === 'link-moved') links.delete(linkKey(c.before));
      links.set(linkKey(c.after), c.after);
    }
  }
  return {
    name: base.name,
    fabricType: base.fabricType,
    nodes: [...nodes.values()],
    links: [...links.values()],
  };
}
