import {
  type Fabric,
  type FabricNode,
  type ForwardingTables,
  NO_ROUTE,
  NoRouteError,
} from '@fabscope/topology';

/** Flow paths as a fixed prefix followed by table lookups, so AR can reroute from any switch on. */
export class PathFinder {
  readonly channelTo: Int32Array;
  readonly channelFromNode: Int32Array;
  readonly channelFromPort: Int32Array;
  /** For each node, its cabled output channels by port number (-1 where uncabled). */
  private readonly outChannels: Int32Array[];
  /** Hop distances to a leaf switch, by leaf index (computed on demand). */
  private readonly leafDistances = new Map<number, Int16Array>();
  /** Hop distances to hosts that are not on exactly one switch port (rare). */
  private readonly hostDistances = new Map<number, Int32Array>();
  /** The one switch a host hangs off, or -1 (multi-port or back-to-back hosts). */
  private readonly leafOf = new Map<number, number>();

  constructor(
    private readonly fabric: Fabric,
    private readonly tables: ForwardingTables,
  ) {
    const channelCount = fabric.links.length * 2;
    this.channelTo = new Int32Array(channelCount);
    this.channelFromNode = new Int32Array(channelCount);
    this.channelFromPort = new Int32Array(channelCount);
    for (const link of fabric.links) {
      const a = fabric.nodeByName.get(link.a.node) as FabricNode;
      const b = fabric.nodeByName.get(link.b.node) as FabricNode;
      const forward = link.index * 2;
      this.channelFromNode[forward] = a.index;
      this.channelFromPort[forward] = link.a.port;
      this.channelTo[forward] = b.index;
      this.channelFromNode[forward + 1] = b.index;
      this.channelFromPort[forward + 1] = link.b.port;
      this.channelTo[forward + 1] = a.index;
    }
    this.outChannels = fabric.nodes.map((node) => new Int32Array(node.portCount + 1).fill(-1));
    for (let c = 0; c < channelCount; c++) {
      const ports = this.outChannels[this.channelFromNode[c] as number] as Int32Array;
      ports[this.channelFromPort[c] as number] = c;
    }
  }

  /** The channel leaving `node` through `port`, or -1. */
  channelAt(node: number, port: number): number {
    return this.outChannels[node]?.[port] ?? -1;
  }

  /** Follows the forwarding tables from switch `node` to host `dest`, appending to `out`. */
  walk(node: number, dest: FabricNode, out: number[]): void {
    const { nodes } = this.fabric;
    let at = node;
    for (let guard = 0; guard <= nodes.length; guard++) {
      if (at === dest.index) return;
      const here = nodes[at] as FabricNode;
      if (here.type !== 'switch') {
        throw new NoRouteError(`path to "${dest.name}" reached "${here.name}"`);
      }
      const port = this.tables.bySwitch[at]?.[dest.lid] ?? NO_ROUTE;
      const channel = port === NO_ROUTE || port === 0 ? -1 : this.channelAt(at, port);
      if (channel < 0) throw new NoRouteError(`switch "${here.name}" has no route to "${dest.name}"`);
      out.push(channel);
      at = this.channelTo[channel] as number;
    }
    throw new NoRouteError(`routing loop toward "${dest.name}"`);
  }

  /** `path` up to position `position`, then out through `channel`, then the tables. */
  rerouteAt(path: ArrayLike<number>, position: number, channel: number, dest: FabricNode): Int32Array {
    const out: number[] = [];
    for (let i = 0; i < position; i++) out.push(path[i] as number);
    out.push(channel);
    this.walk(this.channelTo[channel] as number, dest, out);
    return Int32Array.from(out);
  }

  /** Cabled output channels of `node`, in port order. */
  outputs(node: number): number[] {
    const ports = this.outChannels[node];
    const result: number[] = [];
    if (!ports) return result;
    for (let port = 1; port < ports.length; port++) {
      const c = ports[port] as number;
      if (c >= 0) result.push(c);
    }
    return result;
  }

  /** Switch `node`'s output channels on a shortest path to host `dest`. */
  equalCostChannels(node: number, dest: FabricNode): number[] {
    const distance = (n: number) => this.distanceOf(n, dest);
    const here = distance(node);
    const result: number[] = [];
    if (here <= 0) return result;
    const ports = this.outChannels[node] as Int32Array;
    for (let port = 1; port < ports.length; port++) {
      const c = ports[port] as number;
      if (c >= 0 && distance(this.channelTo[c] as number) === here - 1) result.push(c);
    }
    return result;
  }

  /** Hop distances to `dest` through switches over links up; -1 unreachable. Not cached. */
  distances(dest: FabricNode, linkUp?: Uint8Array): Int32Array {
    const { nodes } = this.fabric;
    const distance = new Int32Array(nodes.length).fill(-1);
    distance[dest.index] = 0;
    let frontier = [dest.index];
    for (let d = 1; frontier.length > 0; d++) {
      const next: number[] = [];
      for (const n of frontier) {
        if (n !== dest.index && nodes[n]?.type !== 'switch') continue;
        const ports = this.outChannels[n] as Int32Array;
        for (let port = 1; port < ports.length; port++) {
          const c = ports[port] as number;
          if (c < 0 || (linkUp && linkUp[c >> 1] !== 1)) continue;
          const peer = this.channelTo[c] as number;
          if (distance[peer] !== -1) continue;
          distance[peer] = d;
          next.push(peer);
        }
      }
      frontier = next;
    }
    return distance;
  }

  /** Distance of node `n` to host `dest`, kept per leaf switch rather than per host to save memory. */
  private distanceOf(n: number, dest: FabricNode): number {
    if (n === dest.index) return 0;
    let leaf = this.leafOf.get(dest.index);
    if (leaf === undefined) {
      const outs = this.outputs(dest.index);
      const peer = outs.length === 1 ? (this.channelTo[outs[0] as number] as number) : -1;
      leaf = peer >= 0 && this.fabric.nodes[peer]?.type === 'switch' ? peer : -1;
      this.leafOf.set(dest.index, leaf);
    }
    if (leaf < 0) {
      let cached = this.hostDistances.get(dest.index);
      if (!cached) {
        cached = this.distances(dest);
        this.hostDistances.set(dest.index, cached);
      }
      return cached[n] as number;
    }
    let byLeaf = this.leafDistances.get(leaf);
    if (!byLeaf) {
      byLeaf = Int16Array.from(this.distances(this.fabric.nodes[leaf] as FabricNode));
      this.leafDistances.set(leaf, byLeaf);
    }
    const d = byLeaf[n] as number;
    return d < 0 ? -1 : d + 1;
  }
}
