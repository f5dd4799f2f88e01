/**
 * Flow paths arrive as channel ids (`from/port->to/port`); the flow list shows the nodes crossed.
 */

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
