import type { EcmpMember, EcmpSet, LinkDirectionState } from '@fabscope/contracts';
import { channelId, type Fabric, type FabricNode } from '@fabscope/topology';

/** Members listed at most (the schema's bound); `paths` still counts them all. */
export const MAX_ECMP_MEMBERS = 64;

/** Each neighbour through a cabled port: the channel leaving `node` and the node it reaches. */
function neighbours(fabric: Fabric, node: FabricNode): { id: string; to: FabricNode }[] {
  const out: { id: string; to: FabricNode }[] = [];
  for (const port of node.ports) {
    const link = port && port.link >= 0 ? fabric.links[port.link] : undefined;
    if (!link || !port) continue;
    const [here, far] =
      link.a.node === node.name && link.a.port === port.number ? [link.a, link.b] : [link.b, link.a];
    const to = fabric.nodeByName.get(far.node);
    if (to) out.push({ id: channelId(here, far), to });
  }
  return out;
}

/** Hops from each node to `to`, through switches only (a host forwards nothing). */
function hopsTo(fabric: Fabric, to: FabricNode): Map<string, number> {
  const hops = new Map<string, number>([[to.name, 0]]);
  let frontier = [to];
  while (frontier.length > 0) {
    const next: FabricNode[] = [];
    for (const node of frontier) {
      if (node !== to && node.type !== 'switch') continue;
      for (const n of neighbours(fabric, node)) {
        if (hops.has(n.to.name)) continue;
        hops.set(n.to.name, (hops.get(node.name) as number) + 1);
        next.push(n.to);
      }
    }
    frontier = next;
  }
  return hops;
}

/**
 * The equal-cost (fewest-hop) paths from `from` to `to` as link-direction ids, the first `limit` in port order,
 * and how many there are in all: the set an Ethernet switch's ECMP spreads flows over, hop by hop.
 */
export function equalCostPaths(
  fabric: Fabric,
  fromName: string,
  toName: string,
  limit = MAX_ECMP_MEMBERS,
): { paths: string[][]; count: number } {
  const from = fabric.nodeByName.get(fromName);
  const to = fabric.nodeByName.get(toName);
  if (!from || !to || from === to) return { paths: [], count: 0 };
  const hops = hopsTo(fabric, to);
  const steps = (node: FabricNode) =>
    node !== from && node.type !== 'switch'
      ? []
      : neighbours(fabric, node).filter((n) => hops.get(n.to.name) === (hops.get(node.name) as number) - 1);
  const ways = new Map<string, number>();
  const count = (node: FabricNode): number => {
    if (node === to) return 1;
    const known = ways.get(node.name);
    if (known !== undefined) return known;
    const total = steps(node).reduce((sum, n) => sum + count(n.to), 0);
    ways.set(node.name, total);
    return total;
  };
  const paths: string[][] = [];
  const walk = (node: FabricNode, path: string[]) => {
    if (paths.length >= limit) return;
    if (node === to) {
      paths.push(path);
      return;
    }
    for (const n of steps(node)) if (count(n.to) > 0) walk(n.to, [...path, n.id]);
  };
  if (!hops.has(from.name)) return { paths: [], count: 0 };
  walk(from, []);
  return { paths, count: count(from) };
}

/** A set's members with their load from the live link states (`states` by id) where they differ, `taken` the answer's path. */
export function ecmpSet(
  found: { paths: string[][]; count: number },
  states: ReadonlyMap<string, LinkDirectionState>,
  taken: readonly string[],
): EcmpSet {
  const worst = (links: string[], field: 'utilization' | 'transmitWaitFraction') => {
    let max = 0;
    for (const id of links) {
      const value = states.get(id)?.[field];
      if (value === null || value === undefined) return null;
      max = Math.max(max, value);
    }
    return max;
  };
  const takenText = taken.join(' ');
  // A member's load is where members differ: hops every member shares (the hosts' own cables) tell none apart,
  // and a host's NIC is often not read at all (a switch-only SNMP fabric).
  const shared = new Set(found.paths[0]?.filter((id) => found.paths.every((p) => p.includes(id))) ?? []);
  const members = found.paths.map((links): EcmpMember => {
    const own = links.filter((id) => !shared.has(id));
    const measured = own.length > 0 ? own : links;
    return {
      links,
      utilization: worst(measured, 'utilization'),
      transmitWaitFraction: worst(measured, 'transmitWaitFraction'),
      taken: links.join(' ') === takenText,
    };
  });
  return { hash: 'switch', paths: found.count, members };
}
