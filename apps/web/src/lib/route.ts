import type { Route, Topology } from '../api/types.ts';

/**
 * The route inspector's pure parts: which nodes can be picked, how hops read (the layout of
 * `opareport -o route`), and which link directions to highlight in the fabric views.
 */

/** Above this many endpoints the pickers are text inputs with a datalist instead of selects. */
export const SELECT_LIMIT = 200;

const naturalOrder = (a: string, b: string): number => a.localeCompare(b, 'en', { numeric: true });

/** Endpoints a route can start or end at: hosts and routers, in natural name order. */
export function endpointNames(topology: Topology | null): string[] {
  if (!topology) return [];
  return topology.nodes
    .filter((n) => n.type !== 'switch')
    .map((n) => n.name)
    .sort(naturalOrder);
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
}

function typeCode(type: string | undefined): string {
  if (type === 'switch') return 'SW';
  if (type === 'host' || type === 'router') return 'FI';
  return type ?? '';
}

/** One row per hop, ports as text ('' where the hop has none). */
export function hopRows(route: Route): HopRow[] {
  return route.hops.map((h, i) => ({
    index: i + 1,
    node: h.node,
    type: typeCode(h.type),
    inPort: h.inPort === undefined ? '' : String(h.inPort),
    outPort: h.outPort === undefined ? '' : String(h.outPort),
    rate: h.rateGbps === undefined ? '' : `${h.rateGbps}g`,
    guid: h.guid ?? '',
  }));
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

/** Channel id → channel index (link i of the topology is 2i a→b and 2i+1 b→a). */
export function channelIndexById(topology: Topology): Map<string, number> {
  const map = new Map<string, number>();
  topology.links.forEach((l, i) => {
    map.set(`${l.a.node}/${l.a.port}->${l.b.node}/${l.b.port}`, 2 * i);
    map.set(`${l.b.node}/${l.b.port}->${l.a.node}/${l.a.port}`, 2 * i + 1);
  });
  return map;
}

/** Channel indices of the given channel ids; unknown ids are skipped. */
export function channelIndices(index: ReadonlyMap<string, number>, ids: readonly string[]): Set<number> {
  const out = new Set<number>();
  for (const id of ids) {
    const c = index.get(id);
    if (c !== undefined) out.add(c);
  }
  return out;
}
