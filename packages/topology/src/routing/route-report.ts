import {
  DEFAULT_LATENCY_MODEL,
  type LatencyBreakdown,
  type LatencyModel,
  routeLatency,
} from '../model/latency.ts';
import {
  channelOf,
  type Fabric,
  type FabricLink,
  type FabricNode,
  type FabricType,
  type NodeType,
} from '../model/model.ts';
import type { Route } from './route.ts';

export interface RouteReportHop {
  node: string;
  type: NodeType;
  /** Node GUID, on subnet-managed networks only (not an IP router, nor a hop leaving by Ethernet). */
  guid?: string;
  inPort?: number;
  outPort?: number;
  /** The link direction leaving this hop through outPort (absent at the destination). */
  link?: string;
  /** Data rate of that link in Gb/s. */
  rateGbps?: number;
  /** The network of the cable the hop leaves by, so a view uses that network's terms. */
  network: FabricType;
}

export interface RouteReport {
  from: string;
  to: string;
  /** The source port's LID; absent when the source is on Ethernet (no LIDs there). */
  slid?: number;
  /** The destination's LID; absent when it is on Ethernet (a router in between forwards by IP). */
  dlid?: number;
  hops: RouteReportHop[];
  /** Link directions crossed, in order. */
  links: string[];
  /** The slowest link on the path (what one flow can get at most), Gb/s. */
  bottleneckGbps: number;
  latencyNs: number;
  latency: LatencyBreakdown;
}

/** A route with per-hop links and rates and a latency estimate from the model. */
export function describeRoute(
  fabric: Fabric,
  route: Route,
  model: Partial<LatencyModel> = DEFAULT_LATENCY_MODEL,
): RouteReport {
  const hops: RouteReportHop[] = route.hops.map((hop, i) => {
    const node = fabric.nodeByName.get(hop.node) as FabricNode;
    const leaving = route.channels[i] ?? route.channels[i - 1];
    const cable = leaving === undefined ? undefined : fabric.links[leaving >> 1];
    const network = cable?.fabricType ?? fabric.fabricType;
    const out: RouteReportHop = { node: node.name, type: node.type, network };
    if (hasFabricIds(network) && node.type !== 'router') out.guid = node.guid;
    if (hop.inPort !== undefined) out.inPort = hop.inPort;
    if (hop.outPort !== undefined) out.outPort = hop.outPort;
    const channel = route.channels[i];
    if (channel !== undefined) {
      const c = channelOf(fabric, channel);
      out.link = c.id;
      out.rateGbps = c.link.rateGbps;
    }
    return out;
  });
  const latency = routeLatency(fabric, route, model);
  const from = fabric.nodeByName.get(route.from) as FabricNode;
  const to = fabric.nodeByName.get(route.to) as FabricNode;
  let bottleneck = Number.POSITIVE_INFINITY;
  for (const c of route.channels) bottleneck = Math.min(bottleneck, fabric.links[c >> 1]?.rateGbps ?? 0);
  const first = hops[0];
  const last = hops[hops.length - 1];
  const ids: { slid?: number; dlid?: number } = {};
  if (first && hasFabricIds(first.network))
    ids.slid = from.ports[route.hops[0]?.outPort ?? 1]?.lid ?? from.lid;
  if (last && hasFabricIds(last.network)) ids.dlid = to.lid;
  return {
    from: route.from,
    to: route.to,
    ...ids,
    hops,
    links: route.channels.map((c) => channelOf(fabric, c).id),
    bottleneckGbps: Number.isFinite(bottleneck) ? bottleneck : 0,
    latencyNs: latency.latencyNs,
    latency,
  };
}

/** Whether ports of a network have GUIDs and LIDs (Omni-Path, InfiniBand); Ethernet has MACs and IPs. */
function hasFabricIds(network: FabricType): boolean {
  return network !== 'ethernet';
}

const ADAPTER_TYPE: Record<FabricType, string> = { omnipath: 'FI', infiniband: 'CA', ethernet: 'NIC' };

function typeCode(node: FabricNode, link: FabricLink | undefined, fabric: Fabric): string {
  if (node.type === 'switch') return 'SW';
  if (node.type === 'router') return 'RT';
  return ADAPTER_TYPE[link?.fabricType ?? fabric.fabricType];
}

/** A node id ibnetdiscover made of the node GUID (`S-0002c90300ff0001`): the GUID column says it already. */
const GUID_ID = /^[SHR]-[0-9a-f]{1,16}$/i;

/** The Name column: the NodeDescription, after the node's own name unless that is only the GUID again. */
function nameColumn(node: FabricNode): string {
  const description = node.description?.trim();
  if (!description || description === node.name) return node.name;
  if (GUID_ID.test(node.name)) return description;
  return `${node.name} (${description})`;
}

function rateText(gbps: number): string {
  return `${Number.isInteger(gbps) ? gbps : gbps.toFixed(1)}g`;
}

/** The route in the layout of `opareport -o route` (opa-ff IbaTools/opareport). */
export function formatOpareportRoute(fabric: Fabric, report: RouteReport): string {
  // No GUID for an Ethernet port nor an IP router's: a dash in the column.
  const end = (name: string, port: number | undefined, link: FabricLink | undefined) => {
    const node = fabric.nodeByName.get(name) as FabricNode;
    const ids = hasFabricIds(link?.fabricType ?? fabric.fabricType) && node.type !== 'router';
    const guid = ids ? ((port === undefined ? undefined : node.ports[port]?.guid) ?? node.guid) : '-';
    return `${guid.padEnd(18)} ${String(port ?? 0).padStart(3)} ${typeCode(node, link, fabric).padEnd(3)} ${nameColumn(node)}`;
  };
  const hex = (lid: number | undefined) =>
    lid === undefined ? '-     ' : `0x${lid.toString(16).padStart(4, '0')}`;
  const cableAt = (name: string, port: number) =>
    fabric.links[fabric.nodeByName.get(name)?.ports[port]?.link ?? -1];
  const first = report.hops[0] as RouteReportHop;
  const last = report.hops[report.hops.length - 1] as RouteReportHop;
  const firstLink = cableAt(first.node, first.outPort ?? 1);
  const lastLink = cableAt(last.node, last.inPort ?? 1);
  const lines = [
    'Routes between ports:',
    `    ${end(first.node, first.outPort, firstLink)}`,
    `and ${end(last.node, last.inPort, lastLink)}`,
    `SLID: ${hex(report.slid)} to DLID: ${hex(report.dlid)} SL: 0`,
    `${report.links.length} Links Traversed`,
    'Rate  NodeGUID           Port Type Name',
  ];
  for (let i = 0; i < report.hops.length - 1; i++) {
    const hop = report.hops[i] as RouteReportHop;
    const next = report.hops[i + 1] as RouteReportHop;
    const link = cableAt(hop.node, hop.outPort ?? 0);
    lines.push(`${rateText(hop.rateGbps ?? 0).padEnd(5)} ${end(hop.node, hop.outPort, link)}`);
    lines.push(`<->   ${end(next.node, next.inPort, link)}`);
  }
  const l = report.latency;
  lines.push(
    `Latency estimate: ${Math.round(report.latencyNs)} ns (endpoints ${l.endpointsNs}, switches ${l.switchesNs}, ` +
      `routers ${l.routersNs}, cables ${Math.round(l.cablesNs)})`,
  );
  return `${lines.join('\n')}\n`;
}
