/** The fabric model: nodes, ports and cables as plain data with index lookups for typed arrays. */

import type { FabricType, LinkKind, NodeType } from '@fabscope/contracts/names';

export type { FabricType, LinkKind, NodeType };

export interface FabricPort {
  /** Physical port number on the node (1-based, as the hardware numbers it). */
  number: number;
  /** Port GUID as 0x-prefixed 16 hex digits (switch ports share the node GUID). */
  guid: string;
  /** LID of the port (a switch's ports answer to the switch's port-0 LID). */
  lid: number;
  rateGbps: number;
  /** Index into Fabric.links, or -1 when nothing is cabled to the port. */
  link: number;
}

/** Width × speed of an InfiniBand link as the tools print it, e.g. `4xEDR`. */
export type LinkWidthSpeed = string;

export interface FabricNode {
  index: number;
  name: string;
  type: NodeType;
  guid: string;
  /** Base LID: a switch's port-0 LID, a host's first port's LID. */
  lid: number;
  /** Switch tier: 1 for edge (leaf), 2 for core (spine), 3 …; 0 for hosts and routers. */
  tier: number;
  /** Number of physical ports the node has (cabled or not). */
  portCount: number;
  /** Cabled and uncabled ports by number; ports[n] is port n, ports[0] is unused. */
  ports: (FabricPort | undefined)[];
  /** Node description (NodeDesc) as the subnet manager reports it, when known. */
  description?: string;
  /** LID mask control: the node's ports answer to 2^lmc consecutive LIDs from their base LID. */
  lmc?: number;
  /**
   * The subnet the node was discovered on, where one fabric holds several (a server watching two planes: the
   * local port, `mlx5_1:1`); its LIDs are unique within that subnet only.
   */
  subnet?: string;
}

export interface PortRef {
  node: string;
  port: number;
}

export interface FabricLink {
  index: number;
  /** Stable id `a/port--b/port` in its one written form (contracts `cableId`: the end nearer the hosts first). */
  id: string;
  kind: LinkKind;
  a: PortRef;
  b: PortRef;
  rateGbps: number;
  /** The network the cable belongs to (differs from the fabric's in mixed fabrics, e.g. a router's NIC). */
  fabricType?: FabricType;
  /** Width × speed as read from a dump (`4xEDR`), when known. */
  widthSpeed?: LinkWidthSpeed;
  /** Cable length in metres, when known (the latency model assumes its default otherwise). */
  lengthM?: number;
  /** MTU of the link in bytes, when known (10236 on an Omni-Path IPoFabric, 9000 on jumbo Ethernet). */
  mtu?: number;
}

export interface Fabric {
  name: string;
  fabricType: FabricType;
  nodes: FabricNode[];
  links: FabricLink[];
  nodeByName: ReadonlyMap<string, FabricNode>;
  /** Node index by LID (-1 where no node holds the LID). */
  nodeByLid: Int32Array;
  maxLid: number;
}

/** A link traversed in one direction. Index: link.index * 2 (a→b) or link.index * 2 + 1 (b→a). */
export interface Channel {
  index: number;
  id: string;
  link: FabricLink;
  from: PortRef;
  to: PortRef;
}

export function channelId(from: PortRef, to: PortRef): string {
  return `${from.node}/${from.port}->${to.node}/${to.port}`;
}

export function channelOf(fabric: Fabric, channelIndex: number): Channel {
  const link = fabric.links[channelIndex >> 1];
  if (!link) throw new RangeError(`no channel ${channelIndex}`);
  const forward = (channelIndex & 1) === 0;
  const from = forward ? link.a : link.b;
  const to = forward ? link.b : link.a;
  return { index: channelIndex, id: channelId(from, to), link, from, to };
}

/** The channel that leaves `node` through `port`, or -1 when the port is not cabled. */
export function channelFrom(fabric: Fabric, node: FabricNode, port: number): number {
  const linkIndex = node.ports[port]?.link ?? -1;
  if (linkIndex < 0) return -1;
  const link = fabric.links[linkIndex] as FabricLink;
  return link.a.node === node.name && link.a.port === port ? linkIndex * 2 : linkIndex * 2 + 1;
}

/** The lowest cabled port of a node, 0 when none is cabled. */
export function firstCabledPort(node: FabricNode): number {
  for (const port of node.ports) if (port && port.link >= 0) return port.number;
  return 0;
}

/** Bytes per second a link of `rateGbps` carries (10^9 bits/s → bytes/s). */
export function bytesPerSecondOfRate(rateGbps: number): number {
  return (rateGbps * 1e9) / 8;
}

export function getNode(fabric: Fabric, name: string): FabricNode {
  const node = fabric.nodeByName.get(name);
  if (!node) throw new UnknownNodeError(name);
  return node;
}

export class UnknownNodeError extends Error {
  constructor(
    readonly nodeName: string,
    message = `unknown node "${nodeName}"`,
  ) {
    super(message);
    this.name = 'UnknownNodeError';
  }
}
