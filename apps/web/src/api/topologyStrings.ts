import type { Topology } from './types.ts';

/**
 * One string per name in a topology read from the API (a decoded answer holds a copy per
 * occurrence, which every major GC walks): link ends share their node's `name`, repeated words are
 * one string each. Values are unchanged; changes the answer in place and returns it.
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
