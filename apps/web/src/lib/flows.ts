/** Flow paths arrive as channel ids; the flow list shows the nodes crossed. */

function nodeOf(end: string): string {
  const slash = end.lastIndexOf('/');
  return slash < 0 ? end : end.slice(0, slash);
}

export function pathNodes(path: readonly string[]): string[] {
  const nodes: string[] = [];
  for (const channel of path) {
    for (const end of channel.split('->')) {
      if (end === '') continue;
      const node = nodeOf(end);
      if (nodes[nodes.length - 1] !== node) nodes.push(node);
    }
  }
  return nodes;
}

/** The seed-002 experiment: nodeA→nodeC and nodeB→nodeD. */
export const SEED_PAIRS: [string, string][] = [
  ['nodeA', 'nodeC'],
  ['nodeB', 'nodeD'],
];

/** Whether a fabric has the seed pairs' hosts (true while the topology is unknown). */
export function hasSeedHosts(topology: { nodes: readonly { name: string }[] } | null): boolean {
  if (topology === null) return true;
  const names = new Set(topology.nodes.map((n) => n.name));
  return SEED_PAIRS.every(([a, b]) => names.has(a) && names.has(b));
}
