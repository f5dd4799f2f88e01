import { cableId } from '@fabscope/contracts/names';
import type { Fabric, FabricLink, FabricNode, FabricType, LinkKind, NodeType } from './model.ts';

/** Optional facts about a cable. */
export interface LinkOptions {
  /** The cable's network when it differs from the fabric's (a router's Ethernet NIC). */
  fabricType?: FabricType;
  /** Width × speed as a dump printed it (`4xEDR`). */
  widthSpeed?: string;
  lengthM?: number;
  mtu?: number;
}

export interface NodeSpec {
  name: string;
  type: NodeType;
  guid: string;
  portCount: number;
  tier?: number;
  /** Base LID; 0 lets build() assign the next free one. */
  lid?: number;
  description?: string;
  /** LID mask control (2^lmc LIDs per port). */
  lmc?: number;
  /** LIDs of individual ports when they differ from the base LID (a CA with two cabled ports). */
  portLids?: Readonly<Record<number, number>>;
  /** GUIDs of individual ports when they differ from the node GUID. */
  portGuids?: Readonly<Record<number, string>>;
  /** The subnet of the node where the fabric holds several: LIDs are unique within one subnet. */
  subnet?: string;
}

/** Collects nodes and cables, checks them (errors name the node or port), and freezes a Fabric. */
export class FabricBuilder {
  private readonly nodes: FabricNode[] = [];
  private readonly links: FabricLink[] = [];
  private readonly byName = new Map<string, FabricNode>();
  private readonly portLids = new Map<FabricNode, Readonly<Record<number, number>>>();
  private readonly portGuids = new Map<FabricNode, Readonly<Record<number, string>>>();

  constructor(
    private readonly name: string,
    private readonly fabricType: FabricType,
  ) {}

  addNode(spec: NodeSpec): FabricNode {
    if (this.byName.has(spec.name)) throw new Error(`duplicate node name "${spec.name}"`);
    if (!Number.isInteger(spec.portCount) || spec.portCount < 1 || spec.portCount > 254) {
      throw new Error(`node "${spec.name}": port count ${spec.portCount} is not in 1..254`);
    }
    const node: FabricNode = {
      index: this.nodes.length,
      name: spec.name,
      type: spec.type,
      guid: spec.guid,
      lid: spec.lid ?? 0,
      tier: spec.tier ?? 0,
      portCount: spec.portCount,
      ports: new Array(spec.portCount + 1).fill(undefined),
    };
    if (spec.description !== undefined) node.description = spec.description;
    if (spec.lmc) node.lmc = spec.lmc;
    if (spec.subnet !== undefined) node.subnet = spec.subnet;
    if (spec.portLids) this.portLids.set(node, spec.portLids);
    if (spec.portGuids) this.portGuids.set(node, spec.portGuids);
    this.nodes.push(node);
    this.byName.set(node.name, node);
    return node;
  }

  node(name: string): FabricNode | undefined {
    return this.byName.get(name);
  }

  connect(
    aName: string,
    aPort: number,
    bName: string,
    bPort: number,
    rateGbps: number,
    kind?: LinkKind,
    options: LinkOptions = {},
  ): void {
    const a = this.nodeOrThrow(aName);
    const b = this.nodeOrThrow(bName);
    this.checkFreePort(a, aPort);
    this.checkFreePort(b, bPort);
    if (a === b && aPort === bPort) throw new Error(`node "${aName}": port ${aPort} is cabled to itself`);
    const index = this.links.length;
    const linkKind: LinkKind = kind ?? (a.type === 'switch' && b.type === 'switch' ? 'isl' : 'host');
    this.links.push({
      index,
      id: cableId({ node: aName, port: aPort, tier: a.tier }, { node: bName, port: bPort, tier: b.tier }),
      kind: linkKind,
      a: { node: aName, port: aPort },
      b: { node: bName, port: bPort },
      rateGbps,
      fabricType: options.fabricType ?? this.fabricType,
      ...(options.widthSpeed === undefined ? {} : { widthSpeed: options.widthSpeed }),
      ...(options.lengthM === undefined ? {} : { lengthM: options.lengthM }),
      ...(options.mtu === undefined ? {} : { mtu: options.mtu }),
    });
    this.setPort(a, aPort, rateGbps, index);
    this.setPort(b, bPort, rateGbps, index);
  }

  /** Declares a port that exists but has no cable (`4x ???` in a port report). */
  addUncabledPort(name: string, port: number, rateGbps = 0): void {
    const node = this.nodeOrThrow(name);
    this.checkFreePort(node, port);
    this.setPort(node, port, rateGbps, -1);
  }

  /** Port `port` of `node`, cabled to link `link` (-1: none); build() gives it its LID. */
  private setPort(node: FabricNode, port: number, rateGbps: number, link: number): void {
    node.ports[port] = {
      number: port,
      guid: this.portGuids.get(node)?.[port] ?? node.guid,
      lid: 0,
      rateGbps,
      link,
    };
  }

  build(): Fabric {
    // Every LID a node answers to: its base LID and its ports' own LIDs, each with 2^lmc LIDs; unique
    // within a subnet. `owner` holds the first node of each LID (nodeByLid), a subnet's own map its nodes'.
    const owner = new Map<number, FabricNode>();
    const subnetOwners = new Map<string, Map<number, FabricNode>>();
    const ownersOf = (node: FabricNode) => {
      if (node.subnet === undefined) return owner;
      const owners = subnetOwners.get(node.subnet) ?? new Map<number, FabricNode>();
      subnetOwners.set(node.subnet, owners);
      return owners;
    };
    const claim = (node: FabricNode, lid: number) => {
      const span = 1 << (node.lmc ?? 0);
      const owners = ownersOf(node);
      for (let l = lid; l < lid + span; l++) {
        const other = owners.get(l);
        if (other && other !== node)
          throw new Error(`node "${node.name}": LID ${l} is already taken by "${other.name}"`);
        owners.set(l, node);
        if (owners !== owner && !owner.has(l)) owner.set(l, node);
      }
    };
    for (const node of this.nodes) {
      if (node.lid > 0) claim(node, node.lid);
      for (const lid of Object.values(this.portLids.get(node) ?? {})) if (lid > 0) claim(node, lid);
    }
    // Unassigned LIDs follow in node order, hosts first, as a subnet manager's sweep would.
    let next = 1;
    const assign = (node: FabricNode) => {
      if (node.lid > 0) return;
      const span = 1 << (node.lmc ?? 0);
      const owners = ownersOf(node);
      for (;;) {
        next = Math.ceil(next / span) * span || span;
        let free = true;
        for (let l = next; l < next + span; l++) if (owners.has(l)) free = false;
        if (free) break;
        next++;
      }
      node.lid = next;
      claim(node, next);
      next += span;
    };
    for (const node of this.nodes) if (node.type !== 'switch') assign(node);
    for (const node of this.nodes) if (node.type === 'switch') assign(node);
    if (next > 0xbfff || [...owner.keys()].some((l) => l > 0xbfff)) {
      throw new Error('the fabric needs more unicast LIDs than 0xBFFF');
    }

    let maxLid = 0;
    for (const lid of owner.keys()) maxLid = Math.max(maxLid, lid);
    const nodeByLid = new Int32Array(maxLid + 1).fill(-1);
    for (const [lid, node] of owner) nodeByLid[lid] = node.index;
    for (const node of this.nodes) {
      const own = this.portLids.get(node);
      for (const port of node.ports) if (port) port.lid = own?.[port.number] ?? node.lid;
    }
    return {
      name: this.name,
      fabricType: this.fabricType,
      nodes: this.nodes,
      links: this.links,
      nodeByName: this.byName,
      nodeByLid,
      maxLid,
    };
  }

  private nodeOrThrow(name: string): FabricNode {
    const node = this.byName.get(name);
    if (!node) throw new Error(`link to unknown node "${name}"`);
    return node;
  }

  private checkFreePort(node: FabricNode, port: number): void {
    if (!Number.isInteger(port) || port < 1 || port > node.portCount) {
      throw new Error(`node "${node.name}": port ${port} is not in 1..${node.portCount}`);
    }
    if (node.ports[port]) throw new Error(`node "${node.name}": port ${port} is cabled twice`);
  }
}
