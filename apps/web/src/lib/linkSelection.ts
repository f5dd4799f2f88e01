import type { Topology } from '@fabscope/contracts';

/** The link directions with open histories (`?links=`), and a compact channel's direction. */

/** At most this many directions share the link history chart. */
export const MAX_SELECTED_LINKS = 6;

export function parseLinkSelection(raw: string | null): string[] {
  if (!raw) return [];
  const ids = raw
    .split(',')
    .map((s) => s.trim())
    .filter((s) => /^[^\s,]+->[^\s,]+$/.test(s));
  return [...new Set(ids)].slice(0, MAX_SELECTED_LINKS);
}

export const serializeLinkSelection = (ids: readonly string[]): string | null =>
  ids.length === 0 ? null : ids.join(',');

/** Opens a direction's history: it goes first; the oldest falls off past the limit. */
export function selectLink(ids: readonly string[], id: string): string[] {
  return [id, ...ids.filter((x) => x !== id)].slice(0, MAX_SELECTED_LINKS);
}

/** Channel c of the compact encoding: link ⌊c/2⌋ of the topology, a→b when c is even. */
export function channelIdAt(topology: Topology, channel: number): string | null {
  const link = topology.links[Math.floor(channel / 2)];
  if (!link || channel < 0) return null;
  const [from, to] = channel % 2 === 0 ? [link.a, link.b] : [link.b, link.a];
  return `${from.node}/${from.port}->${to.node}/${to.port}`;
}
