import { CATEGORY_NAMES } from '@fabscope/topology';
import { type LinkFrame, stateAt } from './frame.ts';
import type { LinkDirectionState } from './utilization.ts';

/**
 * The compact stream encoding (`GET /api/v1/stream?view=compact`), for fabrics too big to send
 * every link direction as an object each second. Per-channel values travel as two flat arrays in
 * channel order — link i of `GET /api/v1/topology`'s `links` is channels 2i (a→b) and 2i+1 (b→a) —
 * so a client that holds the topology can place every value without ids. Only the busiest link
 * directions travel as full objects, for the ranked table.
 */

/** Directions kept per link kind (ISL and host) and per ranking in `top`. */
export const COMPACT_TOP_PER_KIND = 50;

/** Utilization is rounded to this step (0.01 %): finer than any display, and short in JSON. */
export const UTILIZATION_STEP = 1e-4;

export interface CompactTick<H, S> {
  time: string;
  health: H;
  summary: S;
  /** Per channel in topology order: fraction 0..1 rounded to 1e-4, null when unknown (stale). */
  utilization: (number | null)[];
  /** Per channel in topology order: bytes per second rounded to whole bytes, null when unknown. */
  bytesPerSecond: (number | null)[];
  /**
   * Per channel in topology order: share of time the sending port waited for credit (XmitWait),
   * fraction 0..1 rounded to 1e-4, null when unknown (stale, or the tick length is not known).
   */
  waitFraction: (number | null)[];
  /** Channels whose link is reported down, ascending (usually empty, so a list rather than an array per channel). */
  linkDown: number[];
  /**
   * `[channel, errors per second, integrity]` of the channels with errors counted or integrity at
   * or past its threshold (a degraded link), ascending; usually few, so a list. Integrity is the
   * fraction of its threshold, null when unknown; rates rounded to 1e-3.
   */
  errors: [number, number, number | null][];
  /** How many channels' error counters are unknown (`errorsPerSecond` null): not 0, and not listed. */
  errorsUnknown: number;
  /**
   * As full objects, busiest first: for each link kind, the COMPACT_TOP_PER_KIND first directions
   * by utilization, by XmitWait (transmitWaitFraction) and by each PM category (rankings.ts), so a
   * client ranking `top` by any of them gets the same first COMPACT_TOP_PER_KIND as `/links?sort=`.
   */
  top: LinkDirectionState[];
}

export function roundUtilization(value: number | null): number | null {
  if (value === null || !Number.isFinite(value)) return null;
  // Rounding through an integer keeps the JSON short (0.1234, not 0.12340000000000001).
  return Math.round(value / UTILIZATION_STEP) / (1 / UTILIZATION_STEP);
}

function roundBytes(value: number | null): number | null {
  return value === null || !Number.isFinite(value) ? null : Math.round(value);
}

/** Busiest first; unknown after every known value; ties by channel id, so the order is stable. */
export function compareBusiest(a: LinkDirectionState, b: LinkDirectionState): number {
  const ua = a.utilization;
  const ub = b.utilization;
  if (ua !== null && ub !== null && ua !== ub) return ub - ua;
  if (ua === null && ub !== null) return 1;
  if (ub === null && ua !== null) return -1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/**
 * The `limit` busiest directions of each kind, merged busiest first. The overall top `limit` is a
 * prefix of the result, and filtering it by kind gives that kind's top `limit`.
 */
export function busiestPerKind(links: readonly LinkDirectionState[], limit: number): LinkDirectionState[] {
  if (!Number.isInteger(limit) || limit < 0)
    throw new RangeError(`busiestPerKind: limit must be an integer ≥ 0, got ${limit}`);
  const byKind = new Map<string, LinkDirectionState[]>();
  for (const link of links) {
    const list = byKind.get(link.kind);
    if (list) list.push(link);
    else byKind.set(link.kind, [link]);
  }
  const kept: LinkDirectionState[] = [];
  for (const list of byKind.values()) kept.push(...list.sort(compareBusiest).slice(0, limit));
  return kept.sort(compareBusiest);
}

/**
 * Encodes one tick compactly from its directions as objects. The sampler encodes from the frame
 * (compactFrame); this stays for callers that hold objects, and as the reference the frame's
 * encoding is tested against.
 */
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

/** Higher first; unknown (null) after every known value; ties by id, as `/links` breaks them. */
function descending(value: (l: LinkDirectionState) => number | null) {
  return (a: LinkDirectionState, b: LinkDirectionState): number => {
    const va = value(a);
    const vb = value(b);
    if (va !== null && vb !== null && va !== vb) return vb - va;
    if (va === null && vb !== null) return 1;
    if (vb === null && va !== null) return -1;
    return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
  };
}

/** The rankings `top` holds the head of: utilization, XmitWait, then the six PM categories. */
export const TOP_RANKINGS: readonly ((a: LinkDirectionState, b: LinkDirectionState) => number)[] = [
  compareBusiest,
  descending((l) => l.transmitWaitFraction),
  ...CATEGORY_NAMES.map((c) => descending((l) => l.categories[c])),
];

/** The first `k` of `items` in `compare` order, in one pass (no sort of all 166k directions). */
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

/**
 * For each link kind, the first `limit` directions of every ranking in TOP_RANKINGS, without
 * repeats, busiest first: a client ranking them by any of those gets the head the API has.
 */
export function worstPerKind(links: readonly LinkDirectionState[], limit: number): LinkDirectionState[] {
  if (!Number.isInteger(limit) || limit < 0)
    throw new RangeError(`worstPerKind: limit must be an integer ≥ 0, got ${limit}`);
  const byKind = new Map<string, LinkDirectionState[]>();
  for (const link of links) {
    const list = byKind.get(link.kind);
    if (list) list.push(link);
    else byKind.set(link.kind, [link]);
  }
  const kept = new Set<LinkDirectionState>();
  for (const list of byKind.values()) {
    for (const compare of TOP_RANKINGS) for (const link of firstK(list, limit, compare)) kept.add(link);
  }
  return [...kept].sort(compareBusiest);
}

/**
 * Encodes one tick compactly straight from its frame's columns: the same message as compactTick
 * over the frame's objects (tested), with objects made only for the directions in `top`. Pure: the
 * sampler calls it once per tick for every compact client.
 */
export function compactFrame<H, S>(
  tick: { time: string; health: H; summary: S },
  frame: LinkFrame,
  topPerKind = COMPACT_TOP_PER_KIND,
): CompactTick<H, S> {
  const n = frame.utilization.length;
  const utilization = new Array<number | null>(n);
  const bytesPerSecond = new Array<number | null>(n);
  const waitFraction = new Array<number | null>(n);
  const linkDown: number[] = [];
  const errors: [number, number, number | null][] = [];
  let errorsUnknown = 0;
  const integrityOf = frame.categories.integrity;
  for (let i = 0; i < n; i++) {
    // NaN (unknown) is not finite: null, as from the objects' null.
    utilization[i] = roundUtilization(frame.utilization[i] as number);
    bytesPerSecond[i] = roundBytes(frame.bytesPerSecond[i] as number);
    waitFraction[i] = roundUtilization(frame.transmitWaitFraction[i] as number);
    if (frame.linkUp[i] === 0) linkDown.push(i);
    let rate = frame.errorsPerSecond[i] as number;
    if (Number.isNaN(rate)) {
      errorsUnknown++;
      rate = 0;
    }
    const integrity = integrityOf[i] as number;
    const known = !Number.isNaN(integrity);
    if (rate > 0 || (known && integrity >= 1))
      errors.push([i, Math.round(rate * 1000) / 1000, known ? Math.round(integrity * 1000) / 1000 : null]);
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
    top: worstChannelsPerKind(frame, topPerKind)
      .map((c) => stateAt(frame, c))
      .sort(compareBusiest),
  };
}

/**
 * Higher first over one of a frame's columns; unknown (NaN) after every known value; ties by id
 * (the index's id ranks), as `descending` orders the objects.
 */
export function descendingColumn(values: Float64Array, idRank: Int32Array) {
  return (a: number, b: number): number => {
    const va = values[a] as number;
    const vb = values[b] as number;
    const ka = !Number.isNaN(va);
    const kb = !Number.isNaN(vb);
    if (ka && kb && va !== vb) return vb - va;
    if (!ka && kb) return 1;
    if (!kb && ka) return -1;
    return (idRank[a] as number) - (idRank[b] as number);
  };
}

/** The columns TOP_RANKINGS rank by, in its order: utilization, XmitWait, the six PM categories. */
export function topRankingColumns(frame: LinkFrame): Float64Array[] {
  return [frame.utilization, frame.transmitWaitFraction, ...CATEGORY_NAMES.map((c) => frame.categories[c])];
}

/**
 * worstPerKind over a frame: for each link kind, the channels first in every ranking of
 * TOP_RANKINGS, without repeats (in no particular order). One pass over the columns per ranking.
 */
export function worstChannelsPerKind(frame: LinkFrame, limit: number): number[] {
  if (!Number.isInteger(limit) || limit < 0)
    throw new RangeError(`worstPerKind: limit must be an integer ≥ 0, got ${limit}`);
  const index = frame.index;
  const ranks = index.idRank();
  const kept = new Set<number>();
  for (const channels of [index.byKind.isl, index.byKind.host]) {
    for (const values of topRankingColumns(frame))
      for (const c of firstK(channels, limit, descendingColumn(values, ranks))) kept.add(c);
  }
  return [...kept];
}
