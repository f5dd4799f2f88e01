import { fabricGraph } from '../graph.ts';
import { channelOf, type Fabric, type FabricNode } from '../model.ts';
import { type ForwardingTables, NO_ROUTE } from './tables.ts';

/**
 * Static route load, as `ibdiagnet -r` reports it: for every channel (link direction), how many
 * host-to-host paths the forwarding tables send through it. A path runs from a source (a host's
 * cabled port) to a destination LID of another host port (each of its 2^lmc LIDs), following the
 * tables as packets would; channels are counted up to where a path ends, delivered or not.
 */
export interface StaticRouteLoad {
  /** Paths through each channel, indexed by channel (2·link a→b, 2·link+1 b→a). */
  paths: Float64Array;
  /** Host ports paths start from. */
  sources: number;
  /** Host LIDs paths go to. */
  destinations: number;
  /** Paths that reach their destination port. */
  routed: number;
  /** Paths that end before it: a hole in a table (0xFF), an uncabled port, a wrong node. */
  unrouted: number;
  /** Paths caught in a forwarding loop (their channels on the loop are not counted). */
  looping: number;
}

/** The load all at once (`staticRouteLoadSteps` run to its end). */
export function staticRouteLoad(fabric: Fabric, tables: ForwardingTables): StaticRouteLoad {
  const steps = staticRouteLoadSteps(fabric, tables);
  for (;;) {
    const next = steps.next();
    if (next.done) return next.value;
  }
}

/**
 * The load counted per destination LID, without following each of the H·D paths: the tables'
 * entries for one destination form a forest over the switches (each switch has one next hop), whose
 * root delivers to the destination. Every switch starts with the number of sources cabled to it;
 * taking switches in topological order of that forest (Kahn's algorithm, leaves first), each adds
 * its count to the channel its entry leaves by and to its next switch. A switch never taken is on a
 * loop: the paths held there are `looping`.
 *
 * Time O(D·S + H + C) for D destination LIDs, S switches, H host ports and C channels (fat-tree-27648:
 * 27,648 × 2,880 steps instead of following 764 M paths), memory O(S + C) beside the tables. Yields
 * the number of destinations done every `destinationsPerStep`, so a server can interleave other work.
 */
export function* staticRouteLoadSteps(
  fabric: Fabric,
  tables: ForwardingTables,
  destinationsPerStep = 512,
): Generator<number, StaticRouteLoad, void> {
  const g = fabricGraph(fabric);
  const { nodes } = fabric;
  const paths = new Float64Array(fabric.links.length * 2);

  // Switches by compact index s; their tables (a switch without one drops everything).
  const switchOf = new Int32Array(nodes.length).fill(-1);
  const switchNodes: number[] = [];
  for (const node of nodes) {
    if (node.type !== 'switch') continue;
    switchOf[node.index] = switchNodes.length;
    switchNodes.push(node.index);
  }
  const S = switchNodes.length;
  const lfts: (Uint8Array | undefined)[] = switchNodes.map((n) => tables.bySwitch[n]);
  // Switch ports numbered compactly (switch s's port p is base[s] + p), with the channel each
  // leaves by (-1: uncabled) and the switch that channel reaches (-1: none). Counts accumulate per
  // compact port: arrays of a few hundred kB that stay in cache, unlike the fabric's channels.
  const base = new Int32Array(S + 1);
  for (let s = 0; s < S; s++) {
    base[s + 1] =
      (base[s] as number) +
      Math.min((nodes[switchNodes[s] as number] as FabricNode).portCount, NO_ROUTE - 1) +
      1;
  }
  const ports = base[S] as number;
  const lastPort = Int32Array.from(
    { length: S },
    (_, s) => (base[s + 1] as number) - (base[s] as number) - 1,
  );
  const portChannel = new Int32Array(ports).fill(-1);
  const portSwitch = new Int32Array(ports).fill(-1);
  for (let s = 0; s < S; s++) {
    const n = switchNodes[s] as number;
    for (let p = 1; p <= (lastPort[s] as number); p++) {
      const c = g.outChannel[(g.portOffset[n] as number) + p] as number;
      if (c < 0) continue;
      portChannel[(base[s] as number) + p] = c;
      portSwitch[(base[s] as number) + p] = switchOf[g.channelToNode[c] as number] as number;
    }
  }
  const portPaths = new Float64Array(ports);

  // Sources: host ports, each counted at the switch it is cabled to.
  const sourcesAt = new Int32Array(S);
  /** Host ports cabled straight to another node that is not a switch: node index → ports. */
  const direct = new Map<number, number>();
  let sources = 0;
  let stranded = 0; // sources cabled to nothing that forwards (a router, a host): they reach only that node
  const endpoints: { node: number; port: number; channel: number; lid: number; span: number }[] = [];
  for (const node of nodes) {
    if (node.type !== 'host') continue;
    const span = 1 << (node.lmc ?? 0);
    for (let p = 1; p < node.ports.length; p++) {
      const port = node.ports[p];
      if (!port || port.link < 0) continue;
      const channel = g.outChannel[(g.portOffset[node.index] as number) + p] as number;
      const far = g.channelToNode[channel] as number;
      sources++;
      endpoints.push({ node: node.index, port: p, channel, lid: port.lid, span });
      const s = switchOf[far] as number;
      if (s >= 0) sourcesAt[s] = (sourcesAt[s] as number) + 1;
      else {
        direct.set(far, (direct.get(far) ?? 0) + 1);
        stranded++;
      }
    }
  }

  const next = new Int32Array(S);
  const out = new Int32Array(S);
  const indegree = new Int32Array(S);
  const weight = new Int32Array(S);
  const queue = new Int32Array(S);
  const DELIVER = -1;
  const DROP = -2;
  let destinations = 0;
  let routed = 0;
  let unrouted = 0;
  let looping = 0;
  let sinceYield = 0;

  for (const end of endpoints) {
    const dstNode = end.node;
    const into = end.channel ^ 1; // the channel arriving at the destination port
    const attached = switchOf[g.channelToNode[end.channel] as number] as number;
    for (let lid = end.lid; lid < end.lid + end.span; lid++) {
      destinations++;
      // Sources cabled to a non-switch reach only that node.
      const directHere = direct.get(dstNode) ?? 0;
      routed += directHere;
      unrouted += stranded - directHere - (attached < 0 ? 1 : 0);

      // Each switch's next hop towards `lid`: the compact port it leaves by (-1: none).
      indegree.fill(0);
      for (let s = 0; s < S; s++) {
        const lft = lfts[s];
        const port = lft ? (lft[lid] as number) : 0;
        if (port === 0 || port > (lastPort[s] as number)) {
          out[s] = -1;
          next[s] = DROP;
          continue;
        }
        const k = (base[s] as number) + port;
        const t = portSwitch[k] as number;
        out[s] = k;
        if (t >= 0) {
          next[s] = t;
          indegree[t] = (indegree[t] as number) + 1;
        } else next[s] = portChannel[k] === into ? DELIVER : DROP;
      }
      weight.set(sourcesAt);
      if (attached >= 0) weight[attached] = (weight[attached] as number) - 1; // not to itself

      let head = 0;
      let tail = 0;
      for (let s = 0; s < S; s++) if (indegree[s] === 0) queue[tail++] = s;
      while (head < tail) {
        const s = queue[head++] as number;
        const w = weight[s] as number;
        const n = next[s] as number;
        const k = out[s] as number;
        if (w !== 0 && k >= 0 && portChannel[k] !== -1) portPaths[k] = (portPaths[k] as number) + w;
        if (n >= 0) {
          weight[n] = (weight[n] as number) + w;
          const left = (indegree[n] as number) - 1;
          indegree[n] = left;
          if (left === 0) queue[tail++] = n;
        } else if (n === DELIVER) routed += w;
        else unrouted += w;
      }
      if (tail < S) {
        // Switches never taken are on loops: their paths go round for ever.
        for (let s = 0; s < S; s++) if ((indegree[s] as number) > 0) looping += weight[s] as number;
      }
      if (++sinceYield >= destinationsPerStep) {
        sinceYield = 0;
        yield destinations;
      }
    }
  }
  for (let k = 0; k < ports; k++) {
    const c = portChannel[k] as number;
    if (c >= 0) paths[c] = portPaths[k] as number;
  }
  // Every path from a source crosses the channel leaving it: one per destination LID but its own.
  for (const src of endpoints) paths[src.channel] = (paths[src.channel] as number) + destinations - src.span;
  return { paths, sources, destinations, routed, unrouted, looping };
}

/** Which way a switch's output port leads: to a host, a higher tier, a lower one, or the same. */
export type StaticLoadDirection = 'host' | 'up' | 'down' | 'across';

export interface StaticLoadPort {
  /** Link direction id `node/port->node/port`. */
  link: string;
  node: string;
  port: number;
  tier: number;
  direction: StaticLoadDirection;
  paths: number;
  /** Measured utilization 0..1 of the direction leaving the port; null when unknown or not given. */
  utilization: number | null;
}

export interface StaticLoadGroup {
  tier: number;
  direction: StaticLoadDirection;
  /** Cabled output ports in the group. */
  ports: number;
  min: number;
  max: number;
  mean: number;
  /** Mean measured utilization 0..1 over the group's ports with a known one; null when none is known. */
  meanUtilization: number | null;
  /** Ports of the group whose utilization is known. */
  measuredPorts: number;
}

/**
 * How well the paths the tables send through the switch output ports explain the load measured on
 * them: Pearson's correlation over the ports with a known utilization (null when fewer than two, or
 * when either side does not vary — an idle fabric, or tables that load every port alike).
 */
export interface StaticLoadComparison {
  measuredPorts: number;
  correlation: number | null;
}

/**
 * The switch output ports of a load: the `limit` with the most paths (ties in link order), and per
 * switch tier and direction the fewest, most and mean paths over every cabled port. With
 * `utilization` (measured, 0..1 per channel in the fabric's channel order, NaN where unknown) each
 * port and group carries what was measured on it too, and `comparison` says how well static routing
 * explains that load.
 */
export function summarizeStaticLoad(
  fabric: Fabric,
  load: StaticRouteLoad,
  limit: number,
  utilization?: Float64Array,
  /** Which output ports the busiest are chosen from: to switches (`isl`), to hosts, or all. */
  kind?: 'isl' | 'host',
): { groups: StaticLoadGroup[]; top: StaticLoadPort[]; comparison: StaticLoadComparison } {
  const g = fabricGraph(fabric);
  const { nodes } = fabric;
  const groups = new Map<string, StaticLoadGroup & { sum: number; utilizationSum: number }>();
  const candidates: number[] = [];
  const measuredAt = (c: number): number | null => {
    const u = utilization?.[c];
    return u === undefined || Number.isNaN(u) ? null : u;
  };
  const directionOf = (c: number): StaticLoadDirection => {
    const from = nodes[g.channelFromNode[c] as number] as FabricNode;
    const to = nodes[g.channelToNode[c] as number] as FabricNode;
    if (to.type !== 'switch') return 'host';
    return to.tier > from.tier ? 'up' : to.tier < from.tier ? 'down' : 'across';
  };
  const pairs = new PairStatistics();
  for (let c = 0; c < load.paths.length; c++) {
    const from = nodes[g.channelFromNode[c] as number] as FabricNode;
    if (from.type !== 'switch') continue;
    const value = load.paths[c] as number;
    const direction = directionOf(c);
    const key = `${from.tier} ${direction}`;
    let group = groups.get(key);
    if (!group) {
      group = {
        tier: from.tier,
        direction,
        ports: 0,
        min: value,
        max: value,
        mean: 0,
        sum: 0,
        meanUtilization: null,
        measuredPorts: 0,
        utilizationSum: 0,
      };
      groups.set(key, group);
    }
    group.ports++;
    group.sum += value;
    if (value < group.min) group.min = value;
    if (value > group.max) group.max = value;
    const measured = measuredAt(c);
    if (measured !== null) {
      group.measuredPorts++;
      group.utilizationSum += measured;
      pairs.add(value, measured);
    }
    if (kind === undefined || (kind === 'host') === (direction === 'host')) candidates.push(c);
  }
  const order: Record<StaticLoadDirection, number> = { host: 0, up: 1, across: 2, down: 3 };
  const summary = [...groups.values()]
    .map(({ sum, utilizationSum, ...group }) => ({
      ...group,
      mean: group.ports > 0 ? sum / group.ports : 0,
      meanUtilization: group.measuredPorts > 0 ? utilizationSum / group.measuredPorts : null,
    }))
    .sort((a, b) => a.tier - b.tier || order[a.direction] - order[b.direction]);
  const top = topChannels(load.paths, candidates, limit).map((c): StaticLoadPort => {
    const channel = channelOf(fabric, c);
    const from = nodes[g.channelFromNode[c] as number] as FabricNode;
    return {
      link: channel.id,
      node: channel.from.node,
      port: channel.from.port,
      tier: from.tier,
      direction: directionOf(c),
      paths: load.paths[c] as number,
      utilization: measuredAt(c),
    };
  });
  return { groups: summary, top, comparison: { measuredPorts: pairs.n, correlation: pairs.correlation() } };
}

/** Running sums for Pearson's correlation of (x, y) pairs, centred on the first pair for precision. */
class PairStatistics {
  n = 0;
  private x0 = 0;
  private y0 = 0;
  private sx = 0;
  private sy = 0;
  private sxx = 0;
  private syy = 0;
  private sxy = 0;

  add(x: number, y: number): void {
    if (this.n === 0) {
      this.x0 = x;
      this.y0 = y;
    }
    const dx = x - this.x0;
    const dy = y - this.y0;
    this.n++;
    this.sx += dx;
    this.sy += dy;
    this.sxx += dx * dx;
    this.syy += dy * dy;
    this.sxy += dx * dy;
  }

  correlation(): number | null {
    const { n } = this;
    if (n < 2) return null;
    const vx = this.sxx - (this.sx * this.sx) / n;
    const vy = this.syy - (this.sy * this.sy) / n;
    // Relative to the sums' scale: below it the variance is rounding, the side constant.
    if (vx <= 1e-12 * Math.max(1, this.sxx) || vy <= 1e-12 * Math.max(1e-30, this.syy)) return null;
    const r = (this.sxy - (this.sx * this.sy) / n) / Math.sqrt(vx * vy);
    return Math.max(-1, Math.min(1, r));
  }
}

function topChannels(paths: Float64Array, candidates: number[], limit: number): number[] {
  if (limit <= 0 || candidates.length === 0) return [];
  let chosen = candidates;
  if (candidates.length > 4 * limit) {
    // The limit-th largest value bounds what can make the cut.
    const values = Float64Array.from(candidates, (c) => paths[c] as number).sort();
    const bound = values[Math.max(0, values.length - limit)] as number;
    chosen = candidates.filter((c) => (paths[c] as number) >= bound);
  }
  return chosen.sort((a, b) => (paths[b] as number) - (paths[a] as number) || a - b).slice(0, limit);
}
