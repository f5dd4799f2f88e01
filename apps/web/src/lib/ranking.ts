import type { LinkKind, LinkSample } from '../api/types.ts';

/**
 * opatop-style ranking of link directions: busiest first. Unknown (null) utilization sorts after
 * every known value, ties break on the channel id so the order is stable between ticks.
 */

export type KindFilter = 'all' | LinkKind;
export const KIND_FILTERS: readonly KindFilter[] = ['all', 'isl', 'host'];
/** Choices for "top N"; 0 means all. */
export const TOP_N_CHOICES: readonly number[] = [5, 10, 20, 50, 0];
export const DEFAULT_TOP_N = 10;

export interface RankOptions {
  kind: KindFilter;
  /** How many to keep; 0 (or less) keeps all. */
  limit: number;
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

export function rankLinks(links: readonly LinkSample[], options: RankOptions): LinkSample[] {
  const kept = options.kind === 'all' ? [...links] : links.filter((l) => l.kind === options.kind);
  kept.sort(compareByUtilization);
  return options.limit > 0 ? kept.slice(0, options.limit) : kept;
}

export function parseKindFilter(value: string | null): KindFilter {
  return value === 'isl' || value === 'host' ? value : 'all';
}

export function parseTopN(value: string | null): number {
  if (value === null) return DEFAULT_TOP_N;
  const n = Number(value);
  return TOP_N_CHOICES.includes(n) ? n : DEFAULT_TOP_N;
}
