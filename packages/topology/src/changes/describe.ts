import { cableId } from '@fabscope/contracts/names';
import { endKey, type TopologyChange, type TopologyChangeKind } from './diff.ts';
import type { TopologyEnd, TopologyLinkRecord, TopologySnapshot } from './snapshot.ts';

/** A node's tier (0: a host) by node id, where the caller has the topology; undefined when not known. */
export type TierOf = (node: string) => number | undefined;

/** The tiers of a snapshot's nodes, for writing its cables as cableId does. */
export function tiersOf(snapshot: Pick<TopologySnapshot, 'nodes'>): TierOf {
  const tiers = new Map(snapshot.nodes.map((n) => [n.id, n.tier]));
  return (node) => tiers.get(node);
}

/** `node/port` of an end, for people. */
export function endText(end: TopologyEnd): string {
  return `${end.node}/${end.port}`;
}

/**
 * `a/port--b/port` of a cable for people and event subjects: its one written form (contracts' cableId, the end nearer
 * the hosts first) where both ends' tiers are known, else in its declared order.
 */
export function linkText(link: Pick<TopologyLinkRecord, 'a' | 'b'>, tierOf?: TierOf): string {
  const ta = tierOf?.(link.a.node);
  const tb = tierOf?.(link.b.node);
  if (ta === undefined || tb === undefined) return `${endText(link.a)}--${endText(link.b)}`;
  return cableId({ ...link.a, tier: ta }, { ...link.b, tier: tb });
}

/** The other end of a cable from `port`. */
export function farEnd(link: TopologyLinkRecord, port: TopologyEnd): TopologyEnd {
  return endKey(link.a) === endKey(port) ? link.b : link.a;
}

/** Width × speed as discovery printed it, else the rate. */
export function rateText(link: TopologyLinkRecord): string {
  return link.widthSpeed ?? `${link.rateGbps} Gb/s`;
}

/** One line for people: "link removed edge1/3--core1/1", "edge1/3 moved: core1/1 → core1/5". */
export function describeTopologyChange(
  change: TopologyChange,
  tierOf?: TierOf,
): { subject: string; detail: string } {
  switch (change.kind) {
    case 'node-appeared':
    case 'node-disappeared': {
      const { id, type, guid } = change.node;
      return { subject: id, detail: `node ${change.kind.slice('node-'.length)} (${type}, ${guid})` };
    }
    case 'node-changed': {
      const { before: x, after: y } = change;
      const parts: string[] = [];
      if (x.lid !== y.lid) parts.push(`LID ${x.lid} → ${y.lid}`);
      if (x.guid !== y.guid) parts.push(`GUID ${x.guid} → ${y.guid}`);
      if (x.type !== y.type) parts.push(`type ${x.type} → ${y.type}`);
      if (x.portCount !== y.portCount) parts.push(`ports ${x.portCount} → ${y.portCount}`);
      if (x.tier !== y.tier) parts.push(`tier ${x.tier} → ${y.tier}`);
      if (x.name !== y.name || x.description !== y.description) parts.push('renamed');
      return { subject: y.id, detail: `node changed: ${parts.join(', ')}` };
    }
    case 'link-added':
      return { subject: linkText(change.link, tierOf), detail: `link added (${rateText(change.link)})` };
    case 'link-removed':
      return { subject: linkText(change.link, tierOf), detail: 'link removed' };
    case 'link-moved':
      return {
        subject: endText(change.port),
        detail: `link moved: ${endText(change.port)} was cabled to ${endText(farEnd(change.before, change.port))}, now to ${endText(farEnd(change.after, change.port))}`,
      };
    case 'link-rate-changed':
      return {
        subject: linkText(change.after, tierOf),
        detail: `link speed changed: ${rateText(change.before)} → ${rateText(change.after)}`,
      };
  }
}

const NOUNS: Record<TopologyChangeKind, [singular: string, plural: string]> = {
  'link-removed': ['1 link removed', 'links removed'],
  'link-moved': ['1 link moved', 'links moved'],
  'link-added': ['1 link added', 'links added'],
  'link-rate-changed': ['1 link changed speed', 'links changed speed'],
  'node-disappeared': ['1 node disappeared', 'nodes disappeared'],
  'node-appeared': ['1 node appeared', 'nodes appeared'],
  'node-changed': ['1 node changed', 'nodes changed'],
};

/** "1 link removed, 2 links added"; "no change" when there is none. */
export function summarizeTopologyChanges(changes: readonly TopologyChange[]): string {
  const counts = new Map<TopologyChangeKind, number>();
  for (const c of changes) counts.set(c.kind, (counts.get(c.kind) ?? 0) + 1);
  const parts: string[] = [];
  for (const [kind, [one, many]] of Object.entries(NOUNS) as [TopologyChangeKind, [string, string]][]) {
    const n = counts.get(kind) ?? 0;
    if (n > 0) parts.push(n === 1 ? one : `${n} ${many}`);
  }
  return parts.length === 0 ? 'no change' : parts.join(', ');
}
