/**
 * The topology a live API draws and measures: what it drew before, with what discovery found added.
 * A cable or node discovery no longer finds stays drawn, as down, until the API restarts, so a
 * pulled cable is a red line, not a vanished one; a cable whose port now holds another gives it up.
 */
import { diffTopology, endKey, linkKey } from './diff.ts';
import type { TopologyLinkRecord, TopologyNodeRecord, TopologySnapshot } from './snapshot.ts';

/**
 * `drawn` with what `newest` adds to it: its own cables first in their order (so that the channels
 * of the cables already drawn keep theirs), each as `newest` records it where it still finds it,
 * then the new cables; its nodes likewise, then the new nodes. Null when `newest` adds or changes
 * nothing (cables and nodes gone only).
 */
export function drawnTopology(drawn: TopologySnapshot, newest: TopologySnapshot): TopologySnapshot | null {
  const newestLinks = new Map(newest.links.map((l) => [linkKey(l), l]));
  const cabledNow = new Set(newest.links.flatMap((l) => [endKey(l.a), endKey(l.b)]));
  const links: TopologyLinkRecord[] = [];
  const kept = new Set<string>();
  for (const link of drawn.links) {
    const key = linkKey(link);
    const now = newestLinks.get(key);
    if (now) links.push(now);
    else if (cabledNow.has(endKey(link.a)) || cabledNow.has(endKey(link.b))) continue;
    else links.push(link);
    kept.add(key);
  }
  for (const [key, link] of newestLinks) if (!kept.has(key)) links.push(link);

  const newestNodes = new Map(newest.nodes.map((n) => [n.id, n]));
  const nodes: TopologyNodeRecord[] = drawn.nodes.map((n) => newestNodes.get(n.id) ?? n);
  const drawnIds = new Set(drawn.nodes.map((n) => n.id));
  for (const n of newest.nodes) if (!drawnIds.has(n.id)) nodes.push(n);

  const result: TopologySnapshot = { name: drawn.name, fabricType: drawn.fabricType, nodes, links };
  return diffTopology(drawn, result).length === 0 ? null : result;
}
