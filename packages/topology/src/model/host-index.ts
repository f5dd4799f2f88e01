import type { Fabric, FabricNode } from './model.ts';
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
