import type { Topology } from '@fabscope/contracts';

/** One string per name in a topology (a decoded answer copies each, which GC walks); changes it in place. */
export function shareTopologyStrings<T extends Topology>(topology: T): T {
  const names = new Map<string, string>();
  const words = new Map<string, string>();
  const word = (w: string): string => {
    const held = words.get(w);
    if (held !== undefined) return held;
    words.set(w, w);
    return w;
  };
  for (const node of topology.nodes) {
    names.set(node.name, node.name);
    node.type = word(node.type) as typeof node.type;
  }
  for (const link of topology.links) {
    link.kind = word(link.kind) as typeof link.kind;
    if (link.fabricType !== undefined) link.fabricType = word(link.fabricType) as typeof link.fabricType;
    link.a.node = names.get(link.a.node) ?? link.a.node;
    link.b.node = names.get(link.b.node) ?? link.b.node;
  }
  return topology;
}
