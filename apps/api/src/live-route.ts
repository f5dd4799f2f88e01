import type { LinkDirectionState, Route as RouteAnswer, RouteHop } from '@fabscope/contracts';
import {
  describeRoute,
  type Fabric,
  type ForwardingTables,
  NoRouteError,
  nodesNamed,
  type Route,
  railPairs,
  routeBetween,
  routeOfChannels,
} from '@fabscope/topology';
import type { FastifyInstance } from 'fastify';
import { ecmpSet, equalCostPaths } from './ecmp-set.ts';
import { stateAt } from './lib/frame.ts';
import { assertTablesRead, tablesAnswer } from './sm-tables/origin.ts';

/** What a route is read from: the fabric and its tables, the emulator's flows, the live tick. */
type RouteSources = Pick<FastifyInstance, 'fabric' | 'emulator' | 'flowPaths' | 'sampler'>;

/**
 * The route from `from` to `to` now: a running emulator flow's path (adaptive routing may have moved it), else the
 * forwarding tables', the static route beside it when they differ; each hop with the live load of the link leaving it.
 */
export async function liveRoute(app: RouteSources, fromName: string, toName: string): Promise<RouteAnswer> {
  const fabric = app.fabric.fabric;
  const ends = railsBetween(fabric, fromName, toName);
  assertTablesRead(app.fabric.tablesOrigin);
  // Read once: a re-route replaces both while this answer awaits the emulator and the sampler.
  const tables = app.fabric.tables;
  const origin = app.fabric.tablesOrigin;
  const { from, to, route } = firstRouted(app, tables, ends.pairs);
  const staticReport = describeRoute(fabric, route);
  let report = staticReport;
  let flowId: string | undefined;
  if (app.emulator) {
    let flows: Awaited<ReturnType<typeof app.emulator.listFlows>>['flows'] = [];
    try {
      flows = app.flowPaths
        ? await app.flowPaths.between(from, to)
        : (await app.emulator.listFlows({ from, to })).flows;
    } catch {}
    const flow =
      flows.find((f) => f.from === from && f.to === to && f.state !== 'pending' && f.path.length > 0) ?? null;
    const channels = flow ? channelIndices(app, flow.path) : null;
    if (flow && channels) {
      flowId = flow.id;
      if (flow.path.join(' ') !== staticReport.links.join(' ')) {
        report = describeRoute(app.fabric.fabric, routeOfChannels(app.fabric.fabric, channels));
      }
    }
  }
  // On Ethernet the route is a set: every switch hashes a flow onto one of its equal-cost outputs.
  const ecmp = fabric.fabricType === 'ethernet' ? equalCostPaths(fabric, from, to) : null;
  const live = await liveLoad(app, [
    ...report.hops.flatMap((hop) => (hop.link === undefined ? [] : [hop.link])),
    ...(ecmp?.paths.flat() ?? []),
  ]);
  const hops = report.hops.map((hop): RouteHop => {
    if (hop.link === undefined) return hop;
    const state = live.get(hop.link);
    return {
      ...hop,
      utilization: state?.utilization ?? null,
      bytesPerSecond: state?.bytesPerSecond ?? null,
      transmitWaitFraction: state?.transmitWaitFraction ?? null,
    };
  });
  const answer: RouteAnswer = {
    engine: tables.engine,
    tables: tablesAnswer(origin, tables.engine, Date.now()),
    ...report,
    hops,
    source: flowId === undefined ? 'tables' : 'flow',
  };
  if (ecmp && ecmp.count > 0) answer.ecmp = ecmpSet(ecmp, live, report.links);
  if (ends.rails) answer.rail = { from: fromName, to: toName, rails: ends.rails };
  if (flowId !== undefined) answer.flowId = flowId;
  if (report !== staticReport) answer.static = { links: staticReport.links, hops: staticReport.hops };
  return answer;
}

/** Most rail pairs listed in an answer. */
const MAX_RAILS = 16;

/**
 * The node pairs two names mean: one pair for two adapters, a pair per rail when either names a host of
 * several (model/resolve-node.ts); `rails` lists them then, for the answer to say which one it took.
 */
function railsBetween(
  fabric: Fabric,
  fromName: string,
  toName: string,
): { pairs: [string, string][]; rails?: string[] } {
  const fromNodes = nodesNamed(fabric, fromName);
  const toNodes = nodesNamed(fabric, toName);
  const pairs = railPairs(fabric, fromNodes, toNodes)
    .filter(([a, b]) => a !== b)
    .map(([a, b]): [string, string] => [a.name, b.name]);
  if (pairs.length === 0) throw new NoRouteError(`"${fromName}" cannot route to itself`);
  if (fromNodes.length === 1 && toNodes.length === 1) return { pairs };
  return { pairs, rails: pairs.slice(0, MAX_RAILS).map(([a, b]) => `${a}->${b}`) };
}

/** The route of the first rail pair the tables route (a rail whose cable is down has none). */
function firstRouted(
  app: RouteSources,
  tables: ForwardingTables,
  pairs: readonly [string, string][],
): { from: string; to: string; route: Route } {
  let failure: unknown;
  for (const [from, to] of pairs) {
    try {
      return { from, to, route: tablesRoute(app, tables, from, to) };
    } catch (error) {
      if (!(error instanceof NoRouteError)) throw error;
      failure ??= error;
    }
  }
  throw failure;
}

/** The route the tables give; one that stops at a switch the subnet manager gave no table says so. */
function tablesRoute(app: RouteSources, tables: ForwardingTables, from: string, to: string): Route {
  try {
    return routeBetween(app.fabric.fabric, tables, from, to);
  } catch (error) {
    const missing = app.fabric.tablesOrigin?.missing ?? [];
    if (!(error instanceof NoRouteError) || missing.length === 0) throw error;
    const at = missing.find((name) => error.message.includes(`switch "${name}"`));
    if (at === undefined) throw error;
    throw new NoRouteError(
      `${error.message}: the subnet manager's tables (${app.fabric.tablesOrigin?.from}) have no table for switch "${at}"`,
    );
  }
}

function channelIndices(app: RouteSources, ids: readonly string[]): number[] | null {
  const byId = app.fabric.linkIndex.channelById;
  const out: number[] = [];
  for (const id of ids) {
    const index = byId.get(id)?.index;
    if (index === undefined) return null; // the emulator runs another fabric
    out.push(index);
  }
  return out;
}

/** The live state of the route's link directions, made from the tick's frame (of its own drawing) for these only. */
async function liveLoad(app: RouteSources, ids: readonly string[]): Promise<Map<string, LinkDirectionState>> {
  const { frame } = await app.sampler.current();
  const states = new Map<string, LinkDirectionState>();
  for (const id of ids) {
    const channel = frame.index.channelById.get(id);
    if (channel) states.set(id, stateAt(frame, channel.index));
  }
  return states;
}
