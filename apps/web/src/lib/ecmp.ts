import type { EcmpMember, EcmpSet } from '@fabscope/contracts';

/** A member's switches in order (`leaf1 → spine2 → leaf3`): what tells one equal-cost path from another. */
export function ecmpVia(member: Pick<EcmpMember, 'links'>): string {
  const nodes = member.links.slice(1).map((id) => id.split('->')[0]?.split('/')[0] ?? '?');
  return nodes.length === 0 ? 'direct' : nodes.join(' → ');
}

/** The set's caption: how many paths, how many listed, and whose hash picks among them. */
export function ecmpSummary(set: Pick<EcmpSet, 'paths' | 'members'>): string {
  const listed = set.members.length < set.paths ? `, the first ${set.members.length} listed` : '';
  return `${set.paths} equal-cost path${set.paths === 1 ? '' : 's'}${listed}: each switch hashes a flow's 5-tuple onto one; which member a flow takes is the switch's hash, not fabscope's`;
}
