import { FabricBuilder } from '../model/builder.ts';
import { generatedGuid } from '../model/guid.ts';
import type { Fabric, FabricType, NodeType } from '../model/model.ts';
import { nameNodes } from '../model/node-names.ts';
import { parseError } from './errors.ts';

/** A node as a parser read it, before cables are matched up. */
export interface RawNode {
  key: string;
  name: string;
  type: NodeType;
  guid?: string;
  portCount?: number;
  description?: string;
  lid?: number;
  lmc?: number;
  portLids: Record<number, number>;
  portGuids: Record<number, string>;
  /** Ports seen without a cable (`4x ???`). */
  uncabled: Set<number>;
  /** Where it was declared, for errors. */
  where: { line?: number; element?: string };
}

/** One end's view of a cable; each cable is usually listed from both ends. */
export interface RawLink {
  a: { key: string; port: number };
  b: { key: string; port: number };
  rateGbps: number;
  widthSpeed?: string;
  where: { line?: number; element?: string };
}

export function rawNode(key: string, name: string, type: NodeType, where: RawNode['where']): RawNode {
  return { key, name, type, portLids: {}, portGuids: {}, uncabled: new Set(), where };
}

/** What a format promises about its listings, checked once the cables are matched up. */
export interface AssembleChecks {
  /** Whether a node had a header; one only named by a port line is then a dump cut short. */
  described?: (node: RawNode) => boolean;
  /** Whether a node lists every cabled port; a cable listed from one end only is then an error. */
  listsEveryPort?: (node: RawNode) => boolean;
}

/** How nodes are named (model/node-names.ts); absent: by what the parser read, made unique by GUID. */
export interface AssembleNaming {
  /** A site's names by GUID (FABSCOPE_NODE_NAME_MAP). */
  map?: ReadonlyMap<string, string> | undefined;
  /** Whether a node is named from its NodeDescription (else by the id the dump gave it, unless mapped). */
  byDescription: (node: RawNode) => boolean;
}

/** Matches each cable's two listings, derives switch tiers from the hosts up, and builds the Fabric. */
export function assembleFabric(
  name: string,
  fabricType: FabricType,
  format: string,
  nodes: Map<string, RawNode>,
  links: RawLink[],
  checks: AssembleChecks = {},
  naming?: AssembleNaming,
): Fabric {
  const err = (reason: string, where: RawLink['where']) =>
    parseError(reason, where.line, format, where.element);
  const ends = new Map<string, { link: RawLink; other: string }>();
  const unique: RawLink[] = [];
  /** Cables listed from their second end too. */
  const fromBothEnds = new Set<RawLink>();
  const endKey = (e: { key: string; port: number }) => `${e.key}\u0000${e.port}`;
  for (const link of links) {
    for (const end of [link.a, link.b]) {
      if (!nodes.has(end.key)) throw err(`cable to unknown node "${end.key}"`, link.where);
    }
    const ka = endKey(link.a);
    const kb = endKey(link.b);
    if (ka === kb) throw err(`port ${link.a.port} of "${link.a.key}" is cabled to itself`, link.where);
    const seenA = ends.get(ka);
    const seenB = ends.get(kb);
    if (seenA || seenB) {
      const seen = (seenA ?? seenB) as { link: RawLink; other: string };
      if (seenA?.other !== kb || seenB?.other !== ka) {
        const end = seenA ? link.a : link.b;
        const first =
          seen.link.where.line === undefined ? seen.link.where.element : `line ${seen.link.where.line}`;
        throw err(
          `port ${end.port} of "${nodes.get(end.key)?.name ?? end.key}" is cabled to two different ports (also at ${first})`,
          link.where,
        );
      }
      // The same cable listed from its other end: the link runs at the slower end's rate.
      if (ka === endKey(seen.link.b)) fromBothEnds.add(seen.link);
      if (link.rateGbps < seen.link.rateGbps) {
        seen.link.rateGbps = link.rateGbps;
        if (link.widthSpeed) seen.link.widthSpeed = link.widthSpeed;
      }
      continue;
    }
    ends.set(ka, { link, other: kb });
    ends.set(kb, { link, other: ka });
    unique.push(link);
  }

  const { described, listsEveryPort } = checks;
  if (described) {
    for (const n of nodes.values()) {
      if (described(n)) continue;
      throw err(
        `"${n.name}" is cabled here but no record describes it (no Switch/Ca/Rt "${n.name}" header): the dump is cut short or lost the record`,
        n.where,
      );
    }
  }
  if (listsEveryPort) {
    for (const l of unique) {
      if (fromBothEnds.has(l)) continue;
      const a = nodes.get(l.a.key) as RawNode;
      const b = nodes.get(l.b.key) as RawNode;
      if (!listsEveryPort(a) || !listsEveryPort(b)) continue;
      throw err(
        `port ${l.a.port} of "${a.name}" is cabled to port ${l.b.port} of "${b.name}", whose record (line ${b.where.line}) does not list that port: the dump is cut short or lost the line (each cable is listed from both ends)`,
        l.where,
      );
    }
  }

  // Port counts: as declared, or the highest port seen.
  const maxPort = new Map<string, number>();
  const bump = (key: string, port: number) => maxPort.set(key, Math.max(maxPort.get(key) ?? 0, port));
  for (const l of unique) {
    bump(l.a.key, l.a.port);
    bump(l.b.key, l.b.port);
  }
  for (const n of nodes.values()) for (const p of n.uncabled) bump(n.key, p);

  const tiers = switchTiers(nodes, unique);
  const builder = new FabricBuilder(name, fabricType);
  let generated = 0;
  const names = new Set<string>();
  if (naming) applyNames(nodes, naming);
  for (const n of nodes.values()) {
    const seen = maxPort.get(n.key) ?? 1;
    const portCount = Math.max(n.portCount ?? 0, seen, 1);
    if (n.portCount !== undefined && seen > n.portCount) {
      throw err(`"${n.name}" declares ${n.portCount} ports but port ${seen} is cabled`, n.where);
    }
    const display = names.has(n.name) ? `${n.name} (${n.guid ?? n.key})` : n.name;
    names.add(display);
    n.name = display;
    try {
      builder.addNode({
        name: display,
        type: n.type,
        guid: n.guid ?? generatedGuid(n.type === 'switch' ? 1 : n.type === 'router' ? 2 : 0, generated++),
        portCount: Math.min(portCount, 254),
        tier: n.type === 'switch' ? (tiers.get(n.key) ?? 1) : 0,
        ...(n.lid ? { lid: n.lid } : {}),
        ...(n.lmc ? { lmc: n.lmc } : {}),
        ...(n.description !== undefined ? { description: n.description } : {}),
        portLids: n.portLids,
        portGuids: n.portGuids,
      });
    } catch (error) {
      throw err((error as Error).message, n.where);
    }
  }
  for (const l of unique) {
    const a = nodes.get(l.a.key) as RawNode;
    const b = nodes.get(l.b.key) as RawNode;
    const kind = a.type === 'switch' && b.type === 'switch' ? 'isl' : 'host';
    try {
      builder.connect(
        a.name,
        l.a.port,
        b.name,
        l.b.port,
        l.rateGbps,
        kind,
        l.widthSpeed ? { widthSpeed: l.widthSpeed } : {},
      );
    } catch (error) {
      throw err((error as Error).message, l.where);
    }
  }
  for (const n of nodes.values()) {
    for (const p of n.uncabled) if (!builder.node(n.name)?.ports[p]) builder.addUncabledPort(n.name, p);
  }
  try {
    return builder.build();
  } catch (error) {
    // Name where the node the builder complains about was declared.
    const message = (error as Error).message;
    const named = /node "(.*)"/.exec(message)?.[1];
    const node = [...nodes.values()].find((n) => n.name === named);
    throw err(message, node?.where ?? { line: 1 });
  }
}

/** Each node's name per the site's map and the NodeDescription conventions (nameNodes). */
function applyNames(nodes: Map<string, RawNode>, naming: AssembleNaming): void {
  const list = [...nodes.values()];
  const named = nameNodes(
    list.map((n) => ({
      type: n.type,
      guid: n.guid ?? n.key,
      description: naming.byDescription(n) ? n.description : undefined,
      portGuids: Object.values(n.portGuids),
      fallback: n.name,
      ...onePort(n),
    })),
    naming.map,
  );
  list.forEach((n, i) => {
    n.name = (named[i] as { name: string }).name;
  });
}

/** The port a CA node of a port report stands for (it lists each CA port by its own GUID). */
function onePort(n: RawNode): { port?: number } {
  const ports = Object.keys(n.portLids);
  return n.type !== 'switch' && ports.length === 1 ? { port: Number(ports[0]) } : {};
}

function switchTiers(nodes: Map<string, RawNode>, links: RawLink[]): Map<string, number> {
  const adjacent = new Map<string, string[]>();
  const tiers = new Map<string, number>();
  const isSwitch = (k: string) => nodes.get(k)?.type === 'switch';
  for (const l of links) {
    const a = l.a.key;
    const b = l.b.key;
    if (isSwitch(a) && isSwitch(b)) {
      if (a === b) continue;
      adjacent.set(a, [...(adjacent.get(a) ?? []), b]);
      adjacent.set(b, [...(adjacent.get(b) ?? []), a]);
    } else if (isSwitch(a)) tiers.set(a, 1);
    else if (isSwitch(b)) tiers.set(b, 1);
  }
  let frontier = [...tiers.keys()];
  while (frontier.length > 0) {
    const next: string[] = [];
    for (const s of frontier) {
      for (const t of adjacent.get(s) ?? []) {
        if (tiers.has(t)) continue;
        tiers.set(t, (tiers.get(s) as number) + 1);
        next.push(t);
      }
    }
    frontier = next;
  }
  return tiers;
}
