import { type FabricGraph, fabricGraph } from '../model/graph.ts';
import type { Fabric, FabricNode } from '../model/model.ts';
import { type ForwardingTables, NO_ROUTE } from './tables.ts';

/** Static route load, as `ibdiagnet -r`: how many host-to-host paths the tables send through each channel. */
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
  let step = steps.next();
  while (!step.done) step = steps.next();
  return step.value;
}

/** Counts per destination over the tables' forest in topological order (Kahn's), O(D·S + H + C); yields. */
export function* staticRouteLoadSteps(
  fabric: Fabric,
  tables: ForwardingTables,
  destinationsPerStep = 512,
): Generator<number, StaticRouteLoad, void> {
  const g = fabricGraph(fabric);
  const ports = switchPorts(fabric, g, tables);
  const hosts = hostSources(fabric, g, ports);
  const counting = new DestinationCounting(ports, hosts);
  let sinceYield = 0;
  for (const end of hosts.endpoints) {
    const attached = ports.switchOf[g.channelToNode[end.channel] as number] as number;
    for (let lid = end.lid; lid < end.lid + end.span; lid++) {
      counting.count(end, lid, attached);
      if (++sinceYield >= destinationsPerStep) {
        sinceYield = 0;
        yield counting.destinations;
      }
    }
  }
  const paths = new Float64Array(fabric.links.length * 2);
  const { portChannel, portPaths } = ports;
  for (let k = 0; k < portChannel.length; k++) {
    const c = portChannel[k] as number;
    if (c >= 0) paths[c] = portPaths[k] as number;
  }
  const { destinations, routed, unrouted, looping } = counting;
  // Every path from a source crosses the channel leaving it: one per destination LID but its own.
  for (const src of hosts.endpoints)
    paths[src.channel] = (paths[src.channel] as number) + destinations - src.span;
  return { paths, sources: hosts.sources, destinations, routed, unrouted, looping };
}

/** Switches and their ports numbered compactly, so the counts stay in cache. */
interface SwitchPorts {
  switchOf: Int32Array;
  /** Each switch's table (a switch without one drops everything). */
  lfts: (Uint8Array | undefined)[];
  base: Int32Array;
  lastPort: Int32Array;
  portChannel: Int32Array;
  portSwitch: Int32Array;
  portPaths: Float64Array;
}

function switchPorts(fabric: Fabric, g: FabricGraph, tables: ForwardingTables): SwitchPorts {
  const { nodes } = fabric;
  const switchOf = new Int32Array(nodes.length).fill(-1);
  const switchNodes: number[] = [];
  for (const node of nodes) {
    if (node.type !== 'switch') continue;
    switchOf[node.index] = switchNodes.length;
    switchNodes.push(node.index);
  }
  const S = switchNodes.length;
  const base = new Int32Array(S + 1);
  for (let s = 0; s < S; s++) {
    const portCount = (nodes[switchNodes[s] as number] as FabricNode).portCount;
    base[s + 1] = (base[s] as number) + Math.min(portCount, NO_ROUTE - 1) + 1;
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
  const lfts = switchNodes.map((n) => tables.bySwitch[n]);
  return { switchOf, lfts, base, lastPort, portChannel, portSwitch, portPaths: new Float64Array(ports) };
}

interface Endpoint {
  node: number;
  channel: number;
  lid: number;
  span: number;
}

/** Host ports as sources, each counted at the switch it is cabled to. */
interface HostSources {
  endpoints: Endpoint[];
  sources: number;
  sourcesAt: Int32Array;
  /** Host ports cabled straight to another node that is not a switch: node index → ports. */
  direct: Map<number, number>;
  /** Sources cabled to nothing that forwards (a router, a host): they reach only that node. */
  stranded: number;
}

function hostSources(fabric: Fabric, g: FabricGraph, { switchOf, lfts }: SwitchPorts): HostSources {
  const sourcesAt = new Int32Array(lfts.length);
  const direct = new Map<number, number>();
  const endpoints: Endpoint[] = [];
  let stranded = 0;
  for (const node of fabric.nodes) {
    if (node.type !== 'host') continue;
    const span = 1 << (node.lmc ?? 0);
    for (let p = 1; p < node.ports.length; p++) {
      const port = node.ports[p];
      if (!port || port.link < 0) continue;
      const channel = g.outChannel[(g.portOffset[node.index] as number) + p] as number;
      const far = g.channelToNode[channel] as number;
      endpoints.push({ node: node.index, channel, lid: port.lid, span });
      const s = switchOf[far] as number;
      if (s >= 0) sourcesAt[s] = (sourcesAt[s] as number) + 1;
      else {
        direct.set(far, (direct.get(far) ?? 0) + 1);
        stranded++;
      }
    }
  }
  return { endpoints, sources: endpoints.length, sourcesAt, direct, stranded };
}

const DELIVER = -1;
const DROP = -2;

/** The per-destination count over the switches' forest, with the running totals. */
class DestinationCounting {
  destinations = 0;
  routed = 0;
  unrouted = 0;
  looping = 0;
  private readonly next: Int32Array;
  private readonly out: Int32Array;
  private readonly indegree: Int32Array;
  private readonly weight: Int32Array;
  private readonly queue: Int32Array;

  constructor(
    private readonly ports: SwitchPorts,
    private readonly hosts: HostSources,
  ) {
    const S = ports.lfts.length;
    this.next = new Int32Array(S);
    this.out = new Int32Array(S);
    this.indegree = new Int32Array(S);
    this.weight = new Int32Array(S);
    this.queue = new Int32Array(S);
  }

  /** Every source's path to `lid` of `end`, whose port is cabled to switch `attached` (-1: none). */
  count(end: Endpoint, lid: number, attached: number): void {
    const { hosts, weight } = this;
    this.destinations++;
    // Sources cabled to a non-switch reach only that node.
    const directHere = hosts.direct.get(end.node) ?? 0;
    this.routed += directHere;
    this.unrouted += hosts.stranded - directHere - (attached < 0 ? 1 : 0);
    this.nextHops(lid, end.channel ^ 1);
    weight.set(hosts.sourcesAt);
    if (attached >= 0) weight[attached] = (weight[attached] as number) - 1; // not to itself
    this.flow();
  }

  /** Each switch's next hop towards `lid`: the compact port it leaves by (-1: none). */
  private nextHops(lid: number, into: number): void {
    const { lfts, lastPort, base, portSwitch, portChannel } = this.ports;
    const { next, out, indegree } = this;
    indegree.fill(0);
    for (let s = 0; s < lfts.length; s++) {
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
  }

  /** Kahn's algorithm over the forest, leaves first, carrying each switch's paths on. */
  private flow(): void {
    const { portChannel, portPaths } = this.ports;
    const { next, out, indegree, weight, queue } = this;
    const S = next.length;
    let head = 0;
    let tail = 0;
    let routed = 0;
    let unrouted = 0;
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
    this.routed += routed;
    this.unrouted += unrouted;
    if (tail < S) {
      // Switches never taken are on loops: their paths go round for ever.
      for (let s = 0; s < S; s++) if ((indegree[s] as number) > 0) this.looping += weight[s] as number;
    }
  }
}
