import type { LinkKind, LinkSample } from '../api/types.ts';

/**
 * opatop-style ranking of link directions: busiest first. Unknown (null) utilization sorts after
 * every known value, ties break on the channel id so the order is stable between ticks.
 */

export type KindFilter = 'all' | LinkKind;
/** What the table ranks by: utilization (opatop's default) or congestion (XmitWait share of time). */
export type SortKey = 'utilization' | 'congestion';
export const SORT_KEYS: readonly SortKey[] = ['utilization', 'congestion'];
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

export function compareByUtilization(a: LinkSample, b: LinkSample): number {
  const ua = known(a.utilization) ? a.utilization : null;
  const ub = known(b.utilization) ? b.utilization : null;
  if (ua !== null && ub !== null && ua !== ub) return ub - ua;
  if (ua === null && ub !== null) return 1;
  if (ub === null && ua !== null) return -1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/** Most waiting first; unknown wait after every known one; ties by utilization, then id. */
export function compareByWait(a: LinkSample, b: LinkSample): number {
  const wa = known(a.transmitWaitFraction) ? a.transmitWaitFraction : null;
  const wb = known(b.transmitWaitFraction) ? b.transmitWaitFraction : null;
  if (wa !== null && wb !== null && wa !== wb) return wb - wa;
  if (wa === null && wb !== null) return 1;
  if (wb === null && wa !== null) return -1;
  return compareByUtilization(a, b);
}

export function rankLinks(links: readonly LinkSample[], options: RankOptions): LinkSample[] {
  const kept = options.kind === 'all' ? [...links] : links.filter((l) => l.kind === options.kind);
  kept.sort(options.sort === 'congestion' ? compareByWait : compareByUtilization);
  return options.limit > 0 ? kept.slice(0, options.limit) : kept;
}

export function parseKindFilter(value: string | null): KindFilter {
  return value === 'isl' || value === 'host' ? value : 'all';
}

export function parseSortKey(value: string | null): SortKey {
  return value === 'congestion' ? 'congestion' : 'utilization';
}

export function parseTopN(value: string | null): number {
  if (value === null) return DEFAULT_TOP_N;
  const n = Number(value);
  return TOP_N_CHOICES.includes(n) ? n : DEFAULT_TOP_N;
}
