import { findNode } from './find-node.ts';
import type { Fabric, FabricNode } from './model.ts';
import { UnknownNodeError } from './model.ts';
import { readDescription } from './node-names.ts';

/**
 * A fabric's adapters by the host names they answer to: the host (`node001`), its short name when the
 * host is written as a domain name and no other host has it (`node001` for `node001.cluster`), and
 * `host/device` for one rail. Read from each adapter's NodeDescription, so it holds for any fabric
 * rebuilt from a snapshot too.
 */
export interface HostIndex {
  /** The adapters of a host or rail name, in name order. */
  readonly byAlias: ReadonlyMap<string, readonly FabricNode[]>;
  /** Each adapter's host and device, where its description says. */
  readonly railOf: ReadonlyMap<FabricNode, { host: string; device: string }>;
}

const cache = new WeakMap<Fabric, HostIndex>();

export function hostIndex(fabric: Fabric): HostIndex {
  const cached = cache.get(fabric);
  if (cached) return cached;
  const byAlias = new Map<string, FabricNode[]>();
  const railOf = new Map<FabricNode, { host: string; device: string }>();
  const add = (alias: string, node: FabricNode) => {
    const list = byAlias.get(alias);
    if (!list) byAlias.set(alias, [node]);
    else if (!list.includes(node)) list.push(node);
  };
  const shortNames = new Map<string, Set<string>>();
  for (const node of fabric.nodes) {
    if (node.type === 'switch') continue;
    const read = readDescription(node.description, node.type);
    if (!read?.host || !read.device) continue;
    railOf.set(node, { host: read.host, device: read.device });
    add(read.host, node);
    add(`${read.host}/${read.device}`, node);
    const short = read.host.split('.')[0] as string;
    if (short !== read.host) shortNames.set(short, (shortNames.get(short) ?? new Set()).add(read.host));
  }
  for (const [short, hosts] of shortNames) {
    if (hosts.size !== 1 || byAlias.has(short)) continue;
    const host = [...hosts][0] as string;
    for (const node of byAlias.get(host) ?? []) add(short, node);
    for (const node of byAlias.get(host) ?? []) add(`${short}/${railOf.get(node)?.device}`, node);
  }
  for (const list of byAlias.values()) list.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const index = { byAlias, railOf };
  cache.set(fabric, index);
  return index;
}

/**
 * Every node a name means: the node of that name; else a host's adapters (one per rail) or one rail
 * (`host/device`); else the one node findNode finds by GUID, `lid:N` or description. Throws
 * UnknownNodeError when none.
 */
export function nodesNamed(fabric: Fabric, query: string): readonly FabricNode[] {
  const byName = fabric.nodeByName.get(query);
  if (byName) return [byName];
  const rails = hostIndex(fabric).byAlias.get(query);
  if (rails) return rails;
  return [findNode(fabric, query)];
}

/** Like nodesNamed, but undefined rather than an error: for lists (job hosts) that may name other fabrics' nodes. */
export function nodesNamedIfKnown(fabric: Fabric, query: string): readonly FabricNode[] {
  try {
    return nodesNamed(fabric, query);
  } catch (error) {
    if (error instanceof UnknownNodeError) return [];
    throw error;
  }
}

/**
 * Which rail of one host talks to which of another's: the same device where both have it (`mlx5_0` with
 * `mlx5_0`, as multi-rail MPI pairs them), the rest in order; a host with fewer rails reuses its own.
 */
export function railPairs(
  fabric: Fabric,
  from: readonly FabricNode[],
  to: readonly FabricNode[],
): [FabricNode, FabricNode][] {
  if (from.length === 0 || to.length === 0) return [];
  const { railOf } = hostIndex(fabric);
  const pairs: [FabricNode, FabricNode][] = [];
  const leftFrom = [...from];
  const leftTo = [...to];
  for (const a of from) {
    const device = railOf.get(a)?.device;
    const b = device === undefined ? undefined : leftTo.find((n) => railOf.get(n)?.device === device);
    if (!b) continue;
    pairs.push([a, b]);
    leftFrom.splice(leftFrom.indexOf(a), 1);
    leftTo.splice(leftTo.indexOf(b), 1);
  }
  const n = Math.max(leftFrom.length, leftTo.length);
  for (let i = 0; i < n; i++) {
    const a = leftFrom[i] ?? from[i % from.length];
    const b = leftTo[i] ?? to[i % to.length];
    if (a && b) pairs.push([a, b]);
  }
  return pairs;
}
