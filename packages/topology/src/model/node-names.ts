import type { NodeType } from './model.ts';

/** What a NodeDescription says about its node under one convention. */
export interface DescribedNode {
  /** The convention that read it (an id of DESCRIPTION_CONVENTIONS). */
  convention: string;
  /** The name it gives: a host's name, a switch's. */
  name: string;
  /** The host an adapter is in and its device (`mlx5_0`), for adapters named `%h %d`. */
  host?: string;
  device?: string;
  /** A vendor's default, the same on every node of a model: never a name alone (the GUID is added). */
  generic?: boolean;
}

/** One way real software writes NodeDescriptions; the first whose pattern matches a node of its types reads it. */
export interface DescriptionConvention {
  id: string;
  /** Who writes it, and where that is documented. */
  writer: string;
  types: readonly NodeType[];
  pattern: RegExp;
  read(match: RegExpExecArray): Omit<DescribedNode, 'convention'>;
}

/** A host name as `gethostname` gives it: labels of letters, digits and hyphens, dot-separated. */
const HOST = String.raw`[A-Za-z0-9](?:[A-Za-z0-9-]{0,62})(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,62}))*`;
/** A kernel RDMA device (`mlx5_0`, `hfi1_0`, `qib0`, `rxe0`, `bnxt_re0`) or MLNX_OFED's `HCA-1`: ends in its number. */
const DEVICE = '[A-Za-z][A-Za-z0-9_-]{0,62}[0-9]';

/**
 * The NodeDescription conventions fabscope reads, most specific first. Add a row to read another; a
 * description no row reads is the node's name as it is (made unique by GUID where nodes share it).
 */
export const DESCRIPTION_CONVENTIONS: readonly DescriptionConvention[] = [
  {
    id: 'managed-switch',
    writer:
      'NVIDIA/Mellanox managed switches (MLNX-OS, Onyx, NVOS): MF0;<hostname>:<model>[/<module>]/U<n>, e.g. MF0;leaf01:MQM8790/U1, a director leaf MF0;core:CS7520/L03/U1',
    types: ['switch'],
    pattern: /^MF0;([^:;\s][^:;]*):[^/;]+((?:\/[A-Za-z]+[0-9]+)*)\/U[0-9]+$/,
    // A director's modules share its hostname: the module (`/L03`) keeps each one's name its own.
    read: (m) => ({ name: `${(m[1] as string).trim()}${m[2] ?? ''}` }),
  },
  {
    id: 'rdma-ndd',
    writer:
      "rdma-ndd's default node_desc_format `%h %d` (rdma-core rdma-ndd/rdma-ndd.8): host name and RDMA device, e.g. `node001 mlx5_0`; MLNX_OFED's `<host> HCA-1` alike",
    types: ['host', 'router'],
    pattern: new RegExp(`^(${HOST})\\.? (${DEVICE})$`),
    // A host read before its name was set says `localhost`: that names no host (the GUID is added).
    read: (m) =>
      /^localhost(\.localdomain)?$/i.test(m[1] as string)
        ? { name: m[0] as string, generic: true }
        : { name: m[1] as string, host: m[1] as string, device: m[2] as string },
  },
  {
    id: 'vendor-default',
    writer:
      'a device left unnamed carries its firmware default, the same on every one of its model: `Quantum Mellanox Technologies`, `SwitchIB Mellanox Technologies`, `SwitchX -  Mellanox Technologies`, `MT4123 ConnectX6   Mellanox Technologies`; a SHARP Aggregation Node: `Mellanox Technologies Aggregation Node`',
    types: ['switch', 'host', 'router'],
    pattern:
      /^(?:(?:Quantum|SwitchIB|SwitchX|Spectrum|MT[0-9]+)\b.*\bMellanox Technologies|Mellanox Technologies)$/,
    read: (m) => ({ name: (m[0] as string).replace(/\s+/g, ' '), generic: true }),
  },
];

/** What the conventions read in a NodeDescription, or undefined when none does. */
export function readDescription(
  description: string | undefined,
  type: NodeType,
  conventions: readonly DescriptionConvention[] = DESCRIPTION_CONVENTIONS,
): DescribedNode | undefined {
  const text = description?.trim();
  if (!text) return undefined;
  for (const convention of conventions) {
    if (!convention.types.includes(type)) continue;
    const match = convention.pattern.exec(text);
    if (match) return { convention: convention.id, ...convention.read(match) };
  }
  return undefined;
}

/** A node as naming sees it. */
export interface NamingInput {
  type: NodeType;
  guid: string;
  description?: string | undefined;
  /** Its ports' GUIDs (a site's map may name a CA by one of them: `ibnetdiscover -p` shows no CA node GUID). */
  portGuids?: readonly string[] | undefined;
  /** The name to fall back on when it has no description (a dump's node id). */
  fallback?: string | undefined;
  /** The one port this node stands for, where a report lists an adapter's ports apart (`ibnetdiscover -p`). */
  port?: number | undefined;
}

/** Where a node's name came from. */
export type NameSource = 'map' | 'convention' | 'description' | 'id';

export interface NodeNaming {
  name: string;
  source: NameSource;
  /** For an adapter named by its host: the host and device. */
  host?: string;
  device?: string;
}

/**
 * Every node's name: the site's map (by node GUID, else a port GUID), else what a convention reads in
 * its NodeDescription, else the description. An adapter is named by its host, `host/device` where the
 * host has several; a name several nodes would share gets each one's GUID: `name (0x…)`.
 */
export function nameNodes(nodes: readonly NamingInput[], map?: ReadonlyMap<string, string>): NodeNaming[] {
  const reads = nodes.map((n) => readDescription(n.description, n.type));
  const generic: boolean[] = [];
  const named = nodes.map((n, i): NodeNaming => {
    const mapped = map && [n.guid, ...(n.portGuids ?? [])].map((g) => map.get(g)).find((v) => v);
    if (mapped) return { name: mapped, source: 'map' };
    const read = reads[i];
    if (read) {
      if (read.generic) generic[i] = true;
      const naming: NodeNaming = { name: read.name, source: 'convention' };
      if (read.host) {
        naming.host = read.host;
        naming.device = read.device as string;
      }
      return naming;
    }
    const description = n.description?.trim();
    if (description) return { name: description, source: 'description' };
    return { name: n.fallback || n.guid, source: 'id' };
  });
  // A host's adapters are counted by their descriptions, those the map renamed too; the ports of one
  // adapter listed apart (a dual-port mlx4 by `ibnetdiscover -p`) are `host/device:port`.
  const count = (keys: (string | undefined)[]) => {
    const seen = new Map<string, number>();
    for (const k of keys) if (k !== undefined) seen.set(k, (seen.get(k) ?? 0) + 1);
    return seen;
  };
  const onHost = count(reads.map((r) => r?.host));
  const onAdapter = count(reads.map((r) => r?.host && `${r.host}/${r.device}`));
  named.forEach((n, i) => {
    if (!n.host) return;
    const adapter = `${n.host}/${n.device}`;
    const port = (nodes[i] as NamingInput).port;
    if ((onAdapter.get(adapter) ?? 0) > 1 && port !== undefined) n.name = `${adapter}:${port}`;
    else if ((onHost.get(n.host) ?? 0) > 1) n.name = adapter;
  });
  const uses = new Map<string, number>();
  for (const n of named) uses.set(n.name, (uses.get(n.name) ?? 0) + 1);
  const taken = new Set<string>();
  named.forEach((n, i) => {
    const guid = (nodes[i] as NamingInput).guid;
    const base = n.name;
    let name = generic[i] || (uses.get(base) ?? 0) > 1 ? `${base} (${guid})` : base;
    for (let k = 2; taken.has(name); k++) name = `${base} (${guid}) #${k}`;
    taken.add(name);
    n.name = name;
  });
  return named;
}
