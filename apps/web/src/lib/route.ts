import type { FabricType, Topology } from '@fabscope/contracts';
import { naturalCompare } from '@fabscope/contracts/names';
import type { Route } from '../api/types.ts';
import { fabricTerms } from './fabricTerms.ts';
import { onePer } from './onePer.ts';

/** The route inspector's pure parts: pickable nodes, hop rows as `opareport -o route`, highlights. */

/** Above this many endpoints the pickers are searchable comboboxes instead of selects. */
export const SELECT_LIMIT = 200;

/** Endpoints a route can start or end at: hosts and routers, in natural name order. */
export function endpointNames(topology: Topology | null): string[] {
  if (!topology) return [];
  const names = topology.nodes.filter((n) => n.type !== 'switch').map((n) => n.name);
  return [...names, ...hostsOfRails(names)].sort(naturalCompare);
}

/**
 * Hosts of several adapters, which the API names `host/device` (one per rail): each host once, so a
 * route can be asked host to host (the API takes the first rail pair and says which).
 */
export function hostsOfRails(names: readonly string[]): string[] {
  const rails = new Map<string, number>();
  for (const name of names) {
    const slash = name.lastIndexOf('/');
    if (slash > 0) rails.set(name.slice(0, slash), (rails.get(name.slice(0, slash)) ?? 0) + 1);
  }
  const taken = new Set(names);
  return [...rails].filter(([host, n]) => n > 1 && !taken.has(host)).map(([host]) => host);
}

/** "node001/mlx5_0 → node005/mlx5_0 (of 2 rail pairs)" when the route was asked host to host, else null. */
export function railText(route: Pick<Route, 'rail' | 'from' | 'to'>): string | null {
  if (!route.rail) return null;
  return `${route.from} → ${route.to} (of ${route.rail.rails.length} rail pairs)`;
}

/** A node name from the URL: trimmed, or null when absent or blank. */
export function parseNodeParam(raw: string | null): string | null {
  const value = raw?.trim() ?? '';
  return value === '' ? null : value;
}

export const serializeNodeParam = (value: string | null): string | null => value;

export interface HopRow {
  /** 1-based position on the path. */
  index: number;
  node: string;
  /** `FI` (fabric interface: host or router) or `SW`, as opareport prints it. */
  type: string;
  inPort: string;
  outPort: string;
  /** Rate of the link leaving this hop, `100g`; '' at the destination. */
  rate: string;
  guid: string;
  /** Live utilization 0..1 and credit wait 0..1 of the link leaving this hop; null when unknown or none. */
  utilization: number | null;
  waitFraction: number | null;
}

/** The hop's type as opareport codes it; a host by its network's adapter (FI, CA, NIC). */
function typeCode(type: string | undefined, network: FabricType | undefined): string {
  if (type === 'switch') return 'SW';
  if (network === undefined) return type === 'host' || type === 'router' ? 'FI' : (type ?? '');
  if (type === 'router') return 'RT';
  if (type === 'host') return ADAPTER_CODE[network];
  return type ?? '';
}

const ADAPTER_CODE: Record<FabricType, string> = { omnipath: 'FI', infiniband: 'CA', ethernet: 'NIC' };

/** True when both ends of the route are on networks with LIDs (not Ethernet). */
export function routeHasLids(route: Route): boolean {
  const ends = [route.hops[0], route.hops[route.hops.length - 1]];
  return (
    (route.slid !== undefined || route.dlid !== undefined) &&
    ends.every((h) => h?.network === undefined || fabricTerms(h.network).hasLids)
  );
}

/** One row per hop, ports as text ('' where the hop has none). */
export function hopRows(route: Route): HopRow[] {
  return route.hops.map((h, i) => ({
    index: i + 1,
    node: h.node,
    type: typeCode(h.type, h.network),
    inPort: h.inPort === undefined ? '' : String(h.inPort),
    outPort: h.outPort === undefined ? '' : String(h.outPort),
    rate: h.rateGbps === undefined ? '' : `${h.rateGbps}g`,
    // Ethernet has MAC addresses, not GUIDs, and an IP router joins networks: neither shows one.
    guid:
      h.type === 'router' || (h.network !== undefined && !fabricTerms(h.network).hasGuids)
        ? ''
        : (h.guid ?? ''),
    utilization: h.utilization ?? null,
    waitFraction: h.transmitWaitFraction ?? null,
  }));
}

/** The nodes of the static route where the traffic's path leaves it, or null when they agree. */
export function staticDetour(route: Route): string | null {
  if (!route.static) return null;
  return route.static.hops.map((h) => h.node).join(' › ');
}

/** "1170 ns (endpoints 800 + switches 330 + cables 40)", or null without an estimate. */
export function latencyText(route: Route): string | null {
  if (route.latencyNs === undefined) return null;
  const total = `${Math.round(route.latencyNs)} ns`;
  const l = route.latency;
  if (!l) return total;
  const parts = [`endpoints ${l.endpointsNs}`, `switches ${l.switchesNs}`];
  if (l.routersNs > 0) parts.push(`routers ${l.routersNs}`);
  parts.push(`cables ${l.cablesNs}`);
  return `${total} (${parts.join(' + ')})`;
}

/** Nodes the route crosses, for highlighting them. */
export function routeNodes(route: Route | null): ReadonlySet<string> {
  return new Set(route?.hops.map((h) => h.node) ?? []);
}

// One index per topology, made when first asked: on big fabrics it is many strings the GC walks.
/** Channel id → channel index (link i of the topology is 2i a→b and 2i+1 b→a); one per topology. */
export const channelIndexById = onePer((topology: Topology): ReadonlyMap<string, number> => {
  const map = new Map<string, number>();
  topology.links.forEach((l, i) => {
    map.set(`${l.a.node}/${l.a.port}->${l.b.node}/${l.b.port}`, 2 * i);
    map.set(`${l.b.node}/${l.b.port}->${l.a.node}/${l.a.port}`, 2 * i + 1);
  });
  return map;
});

/** Channel indices of the given channel ids; unknown ids are skipped. */
export function channelIndices(index: ReadonlyMap<string, number>, ids: readonly string[]): Set<number> {
  const out = new Set<number>();
  for (const id of ids) {
    const c = index.get(id);
    if (c !== undefined) out.add(c);
  }
  return out;
}

/** A per-channel value, null when unknown (null, NaN) or absent. */
function known(v: number | null | undefined): number | null {
  return v === undefined || v === null || Number.isNaN(v) ? null : v;
}

/** A highlighted path's link directions with their live load, from the compact stream's arrays. */
export interface PathLoad {
  id: string;
  utilization: number | null;
  waitFraction: number | null;
}

export function pathLoads(
  links: readonly string[],
  index: ReadonlyMap<string, number>,
  utilization: ArrayLike<number | null> | null,
  waitFraction: ArrayLike<number | null> | null,
): PathLoad[] {
  return links.map((id) => {
    const c = index.get(id);
    return {
      id,
      utilization: c === undefined ? null : known(utilization?.[c]),
      waitFraction: c === undefined ? null : known(waitFraction?.[c]),
    };
  });
}

/** What the Link tab shows of a direction's live load, from either stream. */
export interface DirectionLoad {
  kind: string;
  utilization: number | null;
  bytesPerSecond: number | null;
  transmitWaitFraction: number | null;
}

/** A direction's load from the compact stream's arrays (big fabrics), or null when unknown. */
export function compactLoad(
  topology: Topology,
  index: ReadonlyMap<string, number>,
  snapshot: {
    utilization: ArrayLike<number | null>;
    bytesPerSecond: ArrayLike<number | null>;
    waitFraction: ArrayLike<number | null>;
  },
  id: string,
): DirectionLoad | null {
  const c = index.get(id);
  const link = c === undefined ? undefined : topology.links[c >> 1];
  if (c === undefined || !link) return null;
  return {
    kind: link.kind,
    utilization: known(snapshot.utilization[c]),
    bytesPerSecond: known(snapshot.bytesPerSecond[c]),
    transmitWaitFraction: known(snapshot.waitFraction[c]),
  };
}
