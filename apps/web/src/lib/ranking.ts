import type { CategoryName, LinkDirectionState, LinkKind } from '@fabscope/contracts';
import { naturalCompare } from '@fabscope/contracts/names';

/** opatop-style ranking, busiest first; unknown last, ties by id in natural order so the order is stable. */

export type KindFilter = 'all' | LinkKind;
/** What the table ranks by: utilization, congestion, or another PM category. */
export type SortKey = 'utilization' | CategoryName;
export const SORT_KEYS: readonly SortKey[] = [
  'utilization',
  'congestion',
  'integrity',
  'smaCongestion',
  'bubble',
  'security',
  'routing',
];
export const KIND_FILTERS: readonly KindFilter[] = ['all', 'isl', 'host'];
/** Choices for "top N"; 0 means all. */
export const TOP_N_CHOICES: readonly number[] = [5, 10, 20, 50, 0];
export const DEFAULT_TOP_N = 10;

export interface RankOptions {
  kind: KindFilter;
  /** How many to keep; 0 (or less) keeps all. */
  limit: number;
  /** Default: utilization. */
  sort?: SortKey;
}

type Link = LinkDirectionState;
const byId = (a: Link, b: Link): number => naturalCompare(a.id, b.id);

/** Largest `value` first, unknown (null, NaN) after every known one, then `tie`. */
function descending(value: (l: Link) => number | null | undefined, tie: (a: Link, b: Link) => number) {
  return (a: Link, b: Link): number => {
    const va = value(a) ?? null;
    const vb = value(b) ?? null;
    const ka = va !== null && Number.isFinite(va) ? va : null;
    const kb = vb !== null && Number.isFinite(vb) ? vb : null;
    if (ka !== null && kb !== null && ka !== kb) return kb - ka;
    if (ka === null && kb !== null) return 1;
    if (kb === null && ka !== null) return -1;
    return tie(a, b);
  };
}

export const compareByUtilization = descending((l) => l.utilization, byId);
/** Most waiting first; unknown wait after every known one; ties by utilization, then id. */
export const compareByWait = descending((l) => l.transmitWaitFraction, compareByUtilization);
/** Worst first by a PM category, in the order of `/api/v1/links?sort=<category>`. */
export const compareByCategory = (category: CategoryName) =>
  descending((l) => l.categories?.[category], byId);

function comparatorFor(sort: SortKey | undefined, links: readonly LinkDirectionState[]) {
  if (sort === undefined || sort === 'utilization') return compareByUtilization;
  // A server without categories (or a past instant: they are live only) still ranks congestion by wait.
  if (sort === 'congestion' && !links.some((l) => l.categories?.congestion != null)) return compareByWait;
  return compareByCategory(sort);
}

export function rankLinks(links: readonly LinkDirectionState[], options: RankOptions): LinkDirectionState[] {
  const kept = options.kind === 'all' ? [...links] : links.filter((l) => l.kind === options.kind);
  kept.sort(comparatorFor(options.sort, kept));
  return options.limit > 0 ? kept.slice(0, options.limit) : kept;
}

export function parseKindFilter(value: string | null): KindFilter {
  return value === 'isl' || value === 'host' ? value : 'all';
}

export function parseSortKey(value: string | null): SortKey {
  return SORT_KEYS.includes(value as SortKey) ? (value as SortKey) : 'utilization';
}

export function parseTopN(value: string | null): number {
  if (value === null) return DEFAULT_TOP_N;
  const n = Number(value);
  return TOP_N_CHOICES.includes(n) ? n : DEFAULT_TOP_N;
}
