import type { Topology } from './types.ts';

/**
 * One string per name in a topology read from the API: each link's ends refer to their node by the
 * node's own `name`, and repeated words (a link's kind, a node's type) are one string each.
 *
 * A decoded answer holds a string per occurrence (JSON and a worker's structured clone both make
 * a new one each time): at fat-tree-27648, 165,888 copies of node names and 113,472 of the two
 * kinds and the node types: 3 of the page's 33 MiB after load, which every major garbage
 * collection walks. Values are unchanged; only which string object holds them. Changes the answer
 * in place (it is the page's own, just decoded) and returns it.
 */
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
