// Names the wire and the computation share, without TypeBox so a computing package need not load the schemas.

/** The Omni-Path performance manager's six port categories, in the order every answer lists them. */
export const CATEGORY_NAMES = [
  'integrity',
  'congestion',
  'smaCongestion',
  'bubble',
  'security',
  'routing',
] as const;
export type CategoryName = (typeof CATEGORY_NAMES)[number];

/** The traffic patterns the API starts (`POST /traffic`'s `pattern`), in the order a form offers them. */
export const TRAFFIC_PATTERNS = [
  'pairs',
  'shift',
  'permutation',
  'all-to-all',
  'incast',
  'bisection',
  'iperf',
  'storage',
] as const;
export type TrafficPattern = (typeof TRAFFIC_PATTERNS)[number];

/** The networks fabscope draws: a fabric's type, and a cable's where it differs. */
export const FABRIC_TYPES = ['omnipath', 'infiniband', 'ethernet'] as const;
export type FabricType = (typeof FABRIC_TYPES)[number];

export const NODE_TYPES = ['host', 'switch', 'router'] as const;
export type NodeType = (typeof NODE_TYPES)[number];

/** `isl`: switch to switch; `host`: a host's or router's cable. */
export const LINK_KINDS = ['host', 'isl'] as const;
export type LinkKind = (typeof LINK_KINDS)[number];

/** What changed between two topology versions (`GET /topology/changes`). */
export const TOPOLOGY_CHANGE_KINDS = [
  'node-appeared',
  'node-disappeared',
  'node-changed',
  'link-added',
  'link-removed',
  'link-moved',
  'link-rate-changed',
] as const;

/** How the cabled fabric differs from its design (`GET /topology/drift`). */
export const DRIFT_KINDS = [
  'missing-link',
  'extra-link',
  'miswired',
  'wrong-rate',
  'missing-node',
  'extra-node',
] as const;
export type DriftKind = (typeof DRIFT_KINDS)[number];

/** A port of a local InfiniBand adapter, a subnet watched through it: FABSCOPE_IB_PORTS lists them `mlx5_0:1`. */
export interface IbLocalPort {
  /** The kernel's RDMA device name (`mlx5_0`). */
  ca: string;
  /** Its port number, from 1. */
  port: number;
}

/** `mlx5_0:1`, as FABSCOPE_IB_PORTS writes a port. */
export function ibPortName(port: IbLocalPort): string {
  return `${port.ca}:${port.port}`;
}

/** The infiniband-diags arguments that pick a port (`-C mlx5_0 -P 1`); none for the tools' default port. */
export function ibPortArgs(port: IbLocalPort | undefined): string[] {
  return port ? ['-C', port.ca, '-P', String(port.port)] : [];
}

/** `mlx5_0:1` → the port; undefined when the text is not a device name, a colon and a port 1..254. */
export function readIbPortName(text: string): IbLocalPort | undefined {
  const match = /^([A-Za-z0-9][A-Za-z0-9_.-]{0,63}):([0-9]{1,3})$/.exec(text.trim());
  const port = Number(match?.[2]);
  if (!match || port < 1 || port > 254) return undefined;
  return { ca: match[1] as string, port };
}
