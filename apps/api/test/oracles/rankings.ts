// Rankings of directions made as objects: what the stream's `top` and `/links` hold, computed by
// sorting the objects. Tests check the frame's ranker (src/lib/link-order.ts) and the compact
// message (src/lib/compact-tick.ts) against them.
import { CATEGORY_NAMES, type LinkDirectionState } from '@fabscope/contracts';
import { naturalCompare } from '@fabscope/contracts/names';
import {
  COMPACT_TOP_PER_KIND,
  type CompactTick,
  compareBusiest,
  roundUtilization,
} from '../../src/lib/compact-tick.ts';
import type { LinkSort } from '../../src/lib/link-order.ts';

/** Higher first; unknown (null) after every known value; ties by id, as `/links` breaks them. */
function descending(value: (l: LinkDirectionState) => number | null) {
  return (a: LinkDirectionState, b: LinkDirectionState): number => {
    const va = value(a);
    const vb = value(b);
    if (va !== null && vb !== null && va !== vb) return vb - va;
    if (va === null && vb !== null) return 1;
    if (vb === null && va !== null) return -1;
    return naturalCompare(a.id, b.id);
  };
}

/** The rankings `top` holds the head of: utilization, XmitWait, then the six PM categories. */
export const TOP_RANKINGS: readonly ((a: LinkDirectionState, b: LinkDirectionState) => number)[] = [
  compareBusiest,
  descending((l) => l.transmitWaitFraction),
  ...CATEGORY_NAMES.map((c) => descending((l) => l.categories[c])),
];

/** The first `k` of `items` in `compare` order, in one pass. */
export function firstK<T>(items: Iterable<T>, k: number, compare: (a: T, b: T) => number): T[] {
  const kept: T[] = [];
  if (k <= 0) return kept;
  for (const item of items) {
    if (kept.length === k && compare(item, kept[k - 1] as T) >= 0) continue;
    let lo = 0;
    let hi = kept.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (compare(kept[mid] as T, item) <= 0) lo = mid + 1;
      else hi = mid;
    }
    kept.splice(lo, 0, item);
    if (kept.length > k) kept.pop();
  }
  return kept;
}

function byKind(links: readonly LinkDirectionState[]): LinkDirectionState[][] {
  const lists = new Map<string, LinkDirectionState[]>();
  for (const link of links) {
    const list = lists.get(link.kind);
    if (list) list.push(link);
    else lists.set(link.kind, [link]);
  }
  return [...lists.values()];
}

function checkLimit(name: string, limit: number): void {
  if (!Number.isInteger(limit) || limit < 0)
    throw new RangeError(`${name}: limit must be an integer ≥ 0, got ${limit}`);
}

/** The `limit` busiest directions of each kind, merged busiest first. */
export function busiestPerKind(links: readonly LinkDirectionState[], limit: number): LinkDirectionState[] {
  checkLimit('busiestPerKind', limit);
  const kept: LinkDirectionState[] = [];
  for (const list of byKind(links)) kept.push(...list.sort(compareBusiest).slice(0, limit));
  return kept.sort(compareBusiest);
}

/** For each link kind, the first `limit` directions of every ranking in TOP_RANKINGS, busiest first. */
export function worstPerKind(links: readonly LinkDirectionState[], limit: number): LinkDirectionState[] {
  checkLimit('worstPerKind', limit);
  const kept = new Set<LinkDirectionState>();
  for (const list of byKind(links)) {
    for (const compare of TOP_RANKINGS) for (const link of firstK(list, limit, compare)) kept.add(link);
  }
  return [...kept].sort(compareBusiest);
}

/** `links` in `/links`' order: by `sort` in `order`, unknown last whichever the order, ties by id. */
export function rankObjects(
  links: readonly LinkDirectionState[],
  sort: LinkSort,
  order: 'asc' | 'desc',
): LinkDirectionState[] {
  const category = (CATEGORY_NAMES as readonly string[]).includes(sort);
  const value = (l: LinkDirectionState): number | null =>
    sort === 'id'
      ? null
      : category
        ? l.categories[sort as (typeof CATEGORY_NAMES)[number]]
        : l[sort as 'utilization' | 'bytesPerSecond' | 'transmitWaitFraction'];
  const byId = (a: LinkDirectionState, b: LinkDirectionState) => naturalCompare(a.id, b.id);
  return [...links].sort((a, b) => {
    if (sort === 'id') return order === 'desc' ? byId(b, a) : byId(a, b);
    const va = value(a);
    const vb = value(b);
    if (va !== null && vb !== null && va !== vb) return order === 'desc' ? vb - va : va - vb;
    if (va === null && vb !== null) return 1;
    if (vb === null && va !== null) return -1;
    return byId(a, b);
  });
}

function roundBytes(value: number | null): number | null {
  return value === null || !Number.isFinite(value) ? null : Math.round(value);
}

/** The compact stream message of a tick whose directions are objects. */
export function compactTick<H, S>(
  tick: { time: string; health: H; summary: S; links: readonly LinkDirectionState[] },
  topPerKind = COMPACT_TOP_PER_KIND,
): CompactTick<H, S> {
  const n = tick.links.length;
  const utilization = new Array<number | null>(n);
  const bytesPerSecond = new Array<number | null>(n);
  const waitFraction = new Array<number | null>(n);
  const linkDown: number[] = [];
  const errors: [number, number, number | null][] = [];
  let errorsUnknown = 0;
  for (let i = 0; i < n; i++) {
    const link = tick.links[i] as LinkDirectionState;
    utilization[i] = roundUtilization(link.utilization);
    bytesPerSecond[i] = roundBytes(link.bytesPerSecond);
    waitFraction[i] = roundUtilization(link.transmitWaitFraction);
    if (link.linkUp === false) linkDown.push(i);
    if (link.errorsPerSecond === null) errorsUnknown++;
    const rate = link.errorsPerSecond ?? 0;
    const integrity = link.categories.integrity;
    if (rate > 0 || (integrity !== null && integrity >= 1))
      errors.push([
        i,
        Math.round(rate * 1000) / 1000,
        integrity === null ? null : Math.round(integrity * 1000) / 1000,
      ]);
  }
  return {
    time: tick.time,
    health: tick.health,
    summary: tick.summary,
    utilization,
    bytesPerSecond,
    waitFraction,
    linkDown,
    errors,
    errorsUnknown,
    top: worstPerKind(tick.links, topPerKind),
  };
}
