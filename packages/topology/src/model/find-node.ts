import { hostIndex } from './host-index.ts';
import { type Fabric, type FabricNode, UnknownNodeError } from './model.ts';

/**
 * A node by name, host name of one adapter or `host/device`, GUID (node or port), `lid:N` or a
 * NodeDescription only one node has. A host of several adapters is not one node: the error names them.
 */
export function findNode(fabric: Fabric, query: string): FabricNode {
  const byName = fabric.nodeByName.get(query);
  if (byName) return byName;
  const rails = hostIndex(fabric).byAlias.get(query);
  if (rails?.length === 1) return rails[0] as FabricNode;
  if (rails) {
    throw new UnknownNodeError(
      query,
      `"${query}" is a host of ${rails.length} adapters: name one (${rails.map((n) => n.name).join(', ')})`,
    );
  }
  const lid = /^lid:?(\d+|0x[0-9a-f]+)$/i.exec(query);
  if (lid) {
    const index = fabric.nodeByLid[Number(lid[1])] ?? -1;
    const node = index >= 0 ? fabric.nodes[index] : undefined;
    if (node) return node;
  }
  if (/^0x[0-9a-f]{1,16}$/i.test(query)) {
    const guid = `0x${query.slice(2).toLowerCase().padStart(16, '0')}`;
    for (const node of fabric.nodes) {
      if (node.guid === guid || node.ports.some((p) => p?.guid === guid)) return node;
    }
  }
  const described = fabric.nodes.filter((n) => n.description === query);
  if (described.length === 1) return described[0] as FabricNode;
  throw new UnknownNodeError(query);
}
