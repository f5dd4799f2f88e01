import type { Fabric, FabricLink, FabricNode, FabricType, LinkKind, NodeType } from './model.ts';

export interface NodeSpec {
  name: string;
  type: NodeType;
  guid: string;
  portCount: number;
  tier?: number;
  /** Base LID; 0 lets build() assign the next free one. */
  lid?: number;
}

/**
 * Collects nodes and cables, checks them, and freezes them into a Fabric with lookups.
 * Errors name the node or port at fault.
 */
export class FabricBuilder {
  private readonly nodes: FabricNode[] = [];
  private readonly links: FabricLink[] = [];
  private readonly byName = new Map<string, FabricNode>();

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
    this.nodes.push(node);
    this.byName.set(node.name, node);
    return node;
  }

  connect(aName: string, aPort: number, bName: string, bPort: number, rateGbps: number, kind?: LinkKind): void {
    const a = this.nodeOrThrow(aName);
    const b = this.nodeOrThrow(bName);
    this.checkFreePort(a, aPort);
    this.checkFreePort(b, bPort);
    const index = this.links.length;
    const linkKind: LinkKind = kind ?? (a.type === 'switch' && b.type === 'switch' ? 'isl' : 'host');
    this.links.push({
      index,
      id: `${aName}/${aPort}--${bName}/${bPort}`,
      kind: linkKind,
      a: { node: aName, port: aPort },
      b: { node: bName, port: bPort },
      rateGbps,
    });
    a.ports[aPort] = { number: aPort, guid: a.guid, lid: 0, rateGbps, link: index };
    b.ports[bPort] = { number: bPort, guid: b.guid, lid: 0, rateGbps, link: index };
  }

  build(): Fabric {
    const used = new Set<number>();
    for (const node of this.nodes) {
      if (node.lid > 0) {
        if (used.has(node.lid)) throw new Error(`node "${node.name}": LID ${node.lid} is already taken`);
        used.add(node.lid);
      }
    }
    // Unassigned LIDs follow in node order, hosts first, as a subnet manager's sweep would.
    let next = 1;
    const assign = (node: FabricNode) => {
      if (node.lid > 0) return;
      while (used.has(next)) next++;
      node.lid = next;
      used.add(next);
    };
    for (const node of this.nodes) if (node.type !== 'switch') assign(node);
    for (const node of this.nodes) if (node.type === 'switch') assign(node);

    let maxLid = 0;
    for (const node of this.nodes) maxLid = Math.max(maxLid, node.lid);
    const nodeByLid = new Int32Array(maxLid + 1).fill(-1);
    for (const node of this.nodes) {
      nodeByLid[node.lid] = node.index;
      for (const port of node.ports) if (port) port.lid = node.lid;
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
