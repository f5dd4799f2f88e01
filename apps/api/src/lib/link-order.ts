import { CATEGORY_NAMES, type CategoryName } from '@fabscope/contracts';
import type { LinkDirectionState, LinkIndex } from './utilization.ts';

/** What `/links` ranks by: a measure, a PM category, or the id. */
export type LinkSort = 'utilization' | 'bytesPerSecond' | 'transmitWaitFraction' | 'id' | CategoryName;

/** Rank of each channel's id in id order, per fabric: computed once (165,888 ids at fat-tree-27648). */
const idRanks = new WeakMap<LinkIndex, { byChannel: Int32Array; byId: Map<string, number> }>();

function idRanksOf(index: LinkIndex) {
  let ranks = idRanks.get(index);
  if (!ranks) {
    const ids = index.channels.map((c) => c.fixed.id);
    const order = ids.map((_, i) => i).sort((a, b) => ((ids[a] as string) < (ids[b] as string) ? -1 : 1));
    const byChannel = new Int32Array(ids.length);
    order.forEach((channel, rank) => {
      byChannel[channel] = rank;
    });
    ranks = { byChannel, byId: new Map(ids.map((id, c) => [id, byChannel[c] as number])) };
    idRanks.set(index, ranks);
  }
  return ranks;
}

/** Computes the id order of `index` now (a server does it at start, not in its first request). */
export function prepareLinkOrder(index: LinkIndex): void {
  idRanksOf(index);
}

/**
 * `links` ranked as `/links` answers them: by `sort` in `order`, unknown (null) values last
 * whichever the order, ties by id. Keys are read once into typed arrays and the sort compares
 * numbers only, so a whole fabric-27648 tick is ranked in tens of milliseconds, not hundreds.
 */
export function rankLinks(
  index: LinkIndex,
  links: readonly LinkDirectionState[],
  sort: LinkSort,
  order: 'asc' | 'desc',
): LinkDirectionState[] {
  const n = links.length;
  const ranks = idRanksOf(index);
  const idRank = new Int32Array(n);
  const keys = new Float64Array(n);
  const category = (CATEGORY_NAMES as readonly string[]).includes(sort) ? (sort as CategoryName) : null;
  for (let i = 0; i < n; i++) {
    const link = links[i] as LinkDirectionState;
    // Ticks list directions in channel order: the rank is then read by position, not looked up.
    const byPosition = index.channels[i]?.fixed.id === link.id;
    const rank = byPosition ? (ranks.byChannel[i] as number) : (ranks.byId.get(link.id) ?? n + i);
    idRank[i] = rank;
    const value =
      sort === 'id'
        ? rank
        : category !== null
          ? link.categories[category]
          : link[sort as 'utilization' | 'bytesPerSecond' | 'transmitWaitFraction'];
    // Descending is ascending on the negated value; unknown sorts after every number either way.
    keys[i] = value === null || value === undefined ? Infinity : order === 'desc' ? -value : value;
  }
  const positions = new Uint32Array(n);
  for (let i = 0; i < n; i++) positions[i] = i;
  // Infinity − Infinity is NaN, which `||` passes over to the id: unknowns are in id order too.
  positions.sort(
    (a, b) => (keys[a] as number) - (keys[b] as number) || (idRank[a] as number) - (idRank[b] as number),
  );
  const ranked = new Array<LinkDirectionState>(n);
  for (let i = 0; i < n; i++) ranked[i] = links[positions[i] as number] as LinkDirectionState;
  return ranked;
}
