import type { CategoryName, LinkDirectionState, LinkKind } from '@fabscope/contracts';

/** opatop-style ranking, busiest first; unknown last, ties by id so the order is stable. */

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

function known(value: number | null): value is number {
  return value !== null && Number.isFinite(value);
}

export function compareByUtilization(a: LinkDirectionState, b: LinkDirectionState): number {
  const ua = known(a.utilization) ? a.utilization : null;
  const ub = known(b.utilization) ? b.utilization : null;
  if (ua !== null && ub !== null && ua !== ub) return ub - ua;
  if (ua === null && ub !== null) return 1;
  if (ub === null && ua !== null) return -1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/** Most waiting first; unknown wait after every known one; ties by utilization, then id. */
export function compareByWait(a: LinkDirectionState, b: LinkDirectionState): number {
  const wa = known(a.transmitWaitFraction) ? a.transmitWaitFraction : null;
  const wb = known(b.transmitWaitFraction) ? b.transmitWaitFraction : null;
  if (wa !== null && wb !== null && wa !== wb) return wb - wa;
  if (wa === null && wb !== null) return 1;
  if (wb === null && wa !== null) return -1;
  return compareByUtilization(a, b);
}

/** Worst first by a PM category, in the order of `/api/v1/links?sort=<category>`. */
export function compareByCategory(category: CategoryName) {
  return (a: LinkDirectionState, b: LinkDirectionState): number => {
    const va = a.categories?.[category] ?? null;
    const vb = b.categories?.[category] ?? null;
    const ka = known(va) ? va : null;
    const kb = known(vb) ? vb : null;
    if (ka !== null && kb !== null && ka !== kb) return kb - ka;
    if (ka === null && kb !== null) return 1;
    if (kb === null && ka !== null) return -1;
    return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
  };
}

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
