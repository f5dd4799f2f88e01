import { type Channel, type Fabric, type FabricNode, channelFrom, channelOf, getNode } from './model.ts';
import { type ForwardingTables, NO_ROUTE } from './routing/tables.ts';

export interface RouteHop {
  node: string;
  inPort?: number;
  outPort?: number;
}

export interface Route {
  from: string;
  to: string;
  hops: RouteHop[];
  /** Channel indices (link directions) in path order. */
  channels: number[];
}

export class NoRouteError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'NoRouteError';
  }
}

function firstCabledPort(node: FabricNode): number {
  for (const port of node.ports) if (port && port.link >= 0) return port.number;
  throw new NoRouteError(`node "${node.name}" has no cabled port`);
}

/** Follows the forwarding tables from one host to another, as packets would. */
export function routeBetween(fabric: Fabric, tables: ForwardingTables, fromName: string, toName: string): Route {
  const from = getNode(fabric, fromName);
  const to = getNode(fabric, toName);
  if (from.type === 'switch' || to.type === 'switch') {
    throw new NoRouteError('routes run between hosts or routers, not switches');
  }
  if (from === to) throw new NoRouteError(`"${fromName}" cannot route to itself`);
  const outPort = firstCabledPort(from);
  const hops: RouteHop[] = [{ node: from.name, outPort }];
  const channels: number[] = [];
  let channel = channelFrom(fabric, from, outPort);
  for (let guard = 0; guard <= fabric.nodes.length; guard++) {
    channels.push(channel);
    const { to: arrival } = channelOf(fabric, channel);
    const node = getNode(fabric, arrival.node);
    if (node === to) {
      hops.push({ node: node.name, inPort: arrival.port });
      return { from: from.name, to: to.name, hops, channels };
    }
    if (node.type !== 'switch') {
      throw new NoRouteError(`route from "${fromName}" to "${toName}" reached host "${node.name}"`);
    }
    const out = tables.bySwitch[node.index]?.[to.lid] ?? NO_ROUTE;
    if (out === NO_ROUTE || out === 0) {
      throw new NoRouteError(`switch "${node.name}" has no route to LID ${to.lid} ("${toName}")`);
    }
    hops.push({ node: node.name, inPort: arrival.port, outPort: out });
    channel = channelFrom(fabric, node, out);
    if (channel < 0) throw new NoRouteError(`switch "${node.name}" routes LID ${to.lid} to uncabled port ${out}`);
  }
  throw new NoRouteError(`routing loop from "${fromName}" to "${toName}"`);
}

export function routeChannels(fabric: Fabric, route: Route): Channel[] {
  return route.channels.map((c) => channelOf(fabric, c));
}
