import { fabricGraph } from '../model/graph.ts';
import { channelOf, type Fabric, type FabricNode, firstCabledPort, getNode } from '../model/model.ts';
import { type ForwardingTables, NO_ROUTE } from './tables.ts';

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
  override name = 'NoRouteError';
}

/** Follows the forwarding tables from one host to another, as packets would. */
export function routeBetween(
  fabric: Fabric,
  tables: ForwardingTables,
  fromName: string,
  toName: string,
): Route {
  const from = getNode(fabric, fromName);
  const to = getNode(fabric, toName);
  if (from.type === 'switch' || to.type === 'switch') {
    throw new NoRouteError('routes run between hosts or routers, not switches');
  }
  if (from === to) throw new NoRouteError(`"${fromName}" cannot route to itself`);
  const g = fabricGraph(fabric);
  const outPort = firstCabledPort(from);
  if (outPort === 0) throw new NoRouteError(`node "${from.name}" has no cabled port`);
  const hops: RouteHop[] = [{ node: from.name, outPort }];
  const channels: number[] = [];
  let channel = g.outChannel[(g.portOffset[from.index] as number) + outPort] as number;
  const lid = to.lid;
  for (let guard = 0; guard <= fabric.nodes.length; guard++) {
    channels.push(channel);
    const n = g.channelToNode[channel] as number;
    const inPort = g.channelToPort[channel] as number;
    const node = fabric.nodes[n] as FabricNode;
    if (node === to) {
      hops.push({ node: node.name, inPort });
      return { from: from.name, to: to.name, hops, channels };
    }
    if (node.type === 'host') {
      throw new NoRouteError(`route from "${fromName}" to "${toName}" reached host "${node.name}"`);
    }
    const lft = tables.bySwitch[n];
    if (!lft)
      throw new NoRouteError(
        `route from "${fromName}" to "${toName}" reached router "${node.name}", which has no table`,
      );
    const out = lft[lid] ?? NO_ROUTE;
    if (out === NO_ROUTE || out === 0) {
      throw new NoRouteError(`${node.type} "${node.name}" has no route to LID ${lid} ("${toName}")`);
    }
    hops.push({ node: node.name, inPort, outPort: out });
    channel = g.outChannel[(g.portOffset[n] as number) + out] as number;
    if (channel < 0)
      throw new NoRouteError(`switch "${node.name}" routes LID ${lid} to uncabled port ${out}`);
  }
  throw new NoRouteError(`routing loop from "${fromName}" to "${toName}"`);
}

/** The route of a path given as channels (e.g. after AR moved it); throws NoRouteError when they do not join. */
export function routeOfChannels(fabric: Fabric, channels: readonly number[]): Route {
  const first = channels[0];
  if (first === undefined) throw new NoRouteError('an empty path is no route');
  const start = channelOf(fabric, first);
  const hops: RouteHop[] = [{ node: start.from.node, outPort: start.from.port }];
  for (let i = 0; i < channels.length; i++) {
    const here = channelOf(fabric, channels[i] as number);
    const next = channels[i + 1];
    const hop: RouteHop = { node: here.to.node, inPort: here.to.port };
    if (next !== undefined) {
      const out = channelOf(fabric, next);
      if (out.from.node !== here.to.node) {
        throw new NoRouteError(`path breaks between ${here.id} and ${out.id}`);
      }
      hop.outPort = out.from.port;
    }
    hops.push(hop);
  }
  return {
    from: start.from.node,
    to: (hops[hops.length - 1] as RouteHop).node,
    hops,
    channels: [...channels],
  };
}
