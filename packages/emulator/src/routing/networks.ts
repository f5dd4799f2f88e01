import { type Fabric, type FabricNode, type FabricType, NoRouteError } from '@fabscope/topology';
import { ecmpPath } from './ecmp.ts';
import type { PathFinder } from './paths.ts';

/**
 * Networks (IP subnets: nodes joined without a router) and hop-by-hop paths across routers, as `ip route`;
 * within one, the tables, or the lowest intact min-hop port where a switch has no entry or it is down.
 */
export class Networks {
  /** Network id of every node (routers: -1, they belong to several). */
  readonly networkOf: Int32Array;
  /** Network type of every network id, from its links. */
  readonly networkType: FabricType[] = [];
  /** Size (hosts) of every network id. */
  readonly hostCount: number[] = [];
  /** Routers: node index → [{port, network}]. */
  private readonly routerPorts = new Map<number, { port: number; network: number }[]>();
  private readonly isSwitch: Uint8Array;

  constructor(
    private readonly fabric: Fabric,
    private readonly finder: PathFinder,
  ) {
    const { nodes } = fabric;
    this.isSwitch = Uint8Array.from(nodes, (n) => (n.type === 'switch' ? 1 : 0));
    this.networkOf = new Int32Array(nodes.length).fill(-1);
    let next = 0;
    for (const seed of nodes) {
      if (seed.type === 'router' || (this.networkOf[seed.index] as number) >= 0) continue;
      const id = next++;
      let type: FabricType = fabric.fabricType;
      let hosts = 0;
      const stack = [seed.index];
      this.networkOf[seed.index] = id;
      while (stack.length > 0) {
        const n = stack.pop() as number;
        if (nodes[n]?.type === 'host') hosts++;
        for (const c of finder.outputs(n)) {
          type = fabric.links[c >> 1]?.fabricType ?? type;
          const peer = finder.channelTo[c] as number;
          if (nodes[peer]?.type === 'router' || (this.networkOf[peer] as number) >= 0) continue;
          this.networkOf[peer] = id;
          stack.push(peer);
        }
      }
      this.networkType[id] = type;
      this.hostCount[id] = hosts;
    }
    for (const node of nodes) {
      if (node.type !== 'router') continue;
      const ports = finder.outputs(node.index).map((c) => ({
        port: finder.channelFromPort[c] as number,
        network: this.networkOf[finder.channelTo[c] as number] as number,
      }));
      this.routerPorts.set(node.index, ports);
    }
  }

  /** The network with the most hosts (the fabric's own, in a mixed scenario). */
  mainNetwork(): number {
    let best = 0;
    for (let id = 1; id < this.hostCount.length; id++) {
      if ((this.hostCount[id] as number) > (this.hostCount[best] as number)) best = id;
    }
    return best;
  }

  /** Hosts (not routers) of a network, in node order. */
  hostsOf(network: number): FabricNode[] {
    return this.fabric.nodes.filter((n) => n.type === 'host' && this.networkOf[n.index] === network);
  }

  /** Type of the network a host sits on (its link's fabricType). */
  typeOfHost(node: FabricNode): FabricType {
    return this.networkType[this.networkOf[node.index] as number] ?? this.fabric.fabricType;
  }

  /** Channels from host `from` to host `to`, across routers; throws NoRouteError. */
  path(from: FabricNode, to: FabricNode, linkUp: Uint8Array, tablesFirst = true): number[] {
    const out: number[] = [];
    const hops = this.routerHops(from, to);
    let at = from;
    let port = firstCabledPort(from);
    for (const hop of hops) {
      const router = this.fabric.nodes[hop.router] as FabricNode;
      this.segment(at, port, router, linkUp, tablesFirst, out);
      at = router;
      port = hop.outPort;
    }
    this.segment(at, port, to, linkUp, tablesFirst, out);
    return out;
  }

  /**
   * A flow's channels: on an Ethernet network, the ECMP member each switch's hash of the flow's `tuple` picks
   * (switches rehash over their live links at once); elsewhere `path`, the tables'.
   */
  flowPath(from: FabricNode, to: FabricNode, linkUp: Uint8Array, tuple: string): number[] {
    const network = this.networkOf[from.index] as number;
    if (this.networkType[network] !== 'ethernet' || this.networkOf[to.index] !== network) {
      return this.path(from, to, linkUp);
    }
    try {
      return ecmpPath(this.finder, this.fabric.nodes, from, to, linkUp, tuple);
    } catch (error) {
      if (!(error instanceof NoRouteError)) throw error;
      return this.path(from, to, linkUp, false);
    }
  }

  /** Routers crossed from `from` to `to`: breadth first over networks joined by routers. */
  routerHops(from: FabricNode, to: FabricNode): { router: number; outPort: number }[] {
    const source = this.networkOf[from.index] as number;
    const target = this.networkOf[to.index] as number;
    if (source === target) return [];
    const previous = new Map<number, { network: number; router: number; outPort: number }>();
    const queue = [source];
    const seen = new Set([source]);
    while (queue.length > 0) {
      const network = queue.shift() as number;
      if (network === target) break;
      for (const [router, ports] of this.routerPorts) {
        if (!ports.some((p) => p.network === network)) continue;
        for (const p of ports) {
          if (seen.has(p.network)) continue;
          seen.add(p.network);
          previous.set(p.network, { network, router, outPort: p.port });
          queue.push(p.network);
        }
      }
    }
    if (!seen.has(target)) {
      throw new NoRouteError(`no router joins the networks of "${from.name}" and "${to.name}"`);
    }
    const hops: { router: number; outPort: number }[] = [];
    for (let n = target; n !== source; ) {
      const step = previous.get(n) as { network: number; router: number; outPort: number };
      hops.unshift({ router: step.router, outPort: step.outPort });
      n = step.network;
    }
    return hops;
  }

  private segment(
    start: FabricNode,
    port: number,
    dest: FabricNode,
    linkUp: Uint8Array,
    tablesFirst: boolean,
    out: number[],
  ): void {
    const first = this.finder.channelAt(start.index, port);
    if (first < 0) throw new NoRouteError(`"${start.name}" port ${port} is not cabled`);
    const next = this.finder.channelTo[first] as number;
    if (next === dest.index) {
      out.push(first);
      return;
    }
    if (this.isSwitch[next] !== 1) throw new NoRouteError(`"${start.name}" is not cabled to a switch`);
    if (tablesFirst) {
      // Tables are followed into a down link: a static route stays lost until the next sweep.
      const walked: number[] = [first];
      try {
        this.finder.walk(next, dest, walked);
        out.push(...walked);
        return;
      } catch (error) {
        if (!(error instanceof NoRouteError)) throw error;
      }
    }
    out.push(first);
    this.minHop(next, dest, linkUp, out);
  }

  /** Lowest-port min-hop walk over intact links from switch `node` to `dest`. */
  private minHop(node: number, dest: FabricNode, linkUp: Uint8Array, out: number[]): void {
    const distance = this.finder.distances(dest, linkUp);
    if ((distance[node] as number) < 0) {
      throw new NoRouteError(`no intact path from "${this.fabric.nodes[node]?.name}" to "${dest.name}"`);
    }
    let at = node;
    while (at !== dest.index) {
      const here = distance[at] as number;
      let chosen = -1;
      for (const c of this.finder.outputs(at)) {
        if (linkUp[c >> 1] === 1 && distance[this.finder.channelTo[c] as number] === here - 1) {
          chosen = c;
          break;
        }
      }
      if (chosen < 0) throw new NoRouteError(`no intact path to "${dest.name}"`);
      out.push(chosen);
      at = this.finder.channelTo[chosen] as number;
    }
  }
}

function firstCabledPort(node: FabricNode): number {
  for (const port of node.ports) if (port && port.link >= 0) return port.number;
  throw new NoRouteError(`node "${node.name}" has no cabled port`);
}
