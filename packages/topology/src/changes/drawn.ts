/** The topology a live API draws: what discovery no longer finds stays, as down, so a pulled cable shows red. */
import { diffTopology, endKey, linkKey } from './diff.ts';
import type { TopologyLinkRecord, TopologyNodeRecord, TopologySnapshot } from './snapshot.ts';

/** `drawn` plus what `newest` adds, old cables first so their channels keep; null when nothing is added. */
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
