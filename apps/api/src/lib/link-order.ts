import { CATEGORY_NAMES, type CategoryName, type LinkDirectionState } from '@fabscope/contracts';
import { type LinkFrame, stateAt } from './frame.ts';
import type { LinkIndex } from './link-index.ts';

/** What `/links` ranks by: a measure, a PM category, or the id. */
export type LinkSort = 'utilization' | 'bytesPerSecond' | 'transmitWaitFraction' | 'id' | CategoryName;

/** Computes the id order of `index` now (a server does it at start, not in its first request). */
export function prepareLinkOrder(index: LinkIndex): void {
  index.idRank();
}

/** Some of a frame's directions (channel numbers), ranked over its columns: objects only for the rows a page returns. */
export interface FrameRows {
  frame: LinkFrame;
  channels: Int32Array;
}

/** `/links`' filters over a frame: the channels of `kind` (all without), and of `ids` when given. */
export function channelsOf(
  frame: LinkFrame,
  kind: 'isl' | 'host' | undefined,
  ids: ReadonlySet<string> | null,
): Int32Array {
  const { index } = frame;
  const wanted = kind === undefined ? -1 : kind === 'isl' ? 1 : 0;
  const out: number[] = [];
  for (let c = 0; c < index.channels.length; c++) {
    if (wanted >= 0 && index.isl[c] !== wanted) continue;
    if (ids !== null && !ids.has((index.channels[c] as LinkIndex['channels'][number]).fixed.id)) continue;
    out.push(c);
  }
  return Int32Array.from(out);
}

/** The column `sort` ranks by; null for the id. */
function columnOf(frame: LinkFrame, sort: LinkSort): Float64Array | null {
  if (sort === 'id') return null;
  return (CATEGORY_NAMES as readonly string[]).includes(sort)
    ? frame.categories[sort as CategoryName]
    : frame[sort as 'utilization' | 'bytesPerSecond' | 'transmitWaitFraction'];
}

/** Descending is ascending on the negated value; unknown sorts after every number either way. */
function sortKey(value: number, order: 'asc' | 'desc'): number {
  return Number.isNaN(value) ? Infinity : order === 'desc' ? -value : value;
}

/** By key, then id rank: Infinity − Infinity is NaN, which `||` passes over to the id. */
function compareKeys(keyA: number, rankA: number, keyB: number, rankB: number): number {
  return keyA - keyB || rankA - rankB;
}

/**
 * The first `k` of `channels` in RankedLinks' order, in one pass without ranking the rest: the
 * stream's `top`, k small against a fabric's directions.
 */
export function firstChannels(
  frame: LinkFrame,
  channels: Int32Array,
  sort: LinkSort,
  order: 'asc' | 'desc',
  k: number,
): number[] {
  const kept: number[] = [];
  if (k <= 0) return kept;
  const keys: number[] = [];
  const ranks = frame.index.idRank();
  const column = columnOf(frame, sort);
  for (const c of channels) {
    const rank = ranks[c] as number;
    const key = sortKey(column === null ? rank : (column[c] as number), order);
    const last = kept.length - 1;
    if (
      kept.length === k &&
      compareKeys(key, rank, keys[last] as number, ranks[kept[last] as number] as number) >= 0
    )
      continue;
    let lo = 0;
    let hi = kept.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (compareKeys(keys[mid] as number, ranks[kept[mid] as number] as number, key, rank) <= 0)
        lo = mid + 1;
      else hi = mid;
    }
    kept.splice(lo, 0, c);
    keys.splice(lo, 0, key);
    if (kept.length > k) {
      kept.pop();
      keys.pop();
    }
  }
  return kept;
}

/**
 * The one ranker of a frame's directions, as `/links` answers them and the stream's `top` is chosen: by `sort` in
 * `order`, unknown (NaN) last whichever the order, ties by id.
 */
export class RankedLinks {
  private readonly keys: Float64Array;
  private readonly idRank: Int32Array;
  private readonly positions: Uint32Array;
  /** positions[0..ranked) are the first `ranked` rows, in order. */
  private ranked = 0;
  private readonly n: number;
  private readonly frame: LinkFrame;
  private readonly rows: Int32Array;

  constructor(index: LinkIndex, source: FrameRows, sort: LinkSort, order: 'asc' | 'desc') {
    const { frame, channels } = source;
    if (frame.index !== index) throw new Error('RankedLinks: the frame is of another drawing');
    const n = channels.length;
    this.n = n;
    this.frame = frame;
    this.rows = channels;
    const byChannel = index.idRank();
    this.idRank = new Int32Array(n);
    this.keys = new Float64Array(n);
    this.positions = new Uint32Array(n);
    const column = columnOf(frame, sort);
    for (let i = 0; i < n; i++) {
      const c = channels[i] as number;
      const rank = byChannel[c] as number;
      this.idRank[i] = rank;
      this.keys[i] = sortKey(column === null ? rank : (column[c] as number), order);
      this.positions[i] = i;
    }
  }

  get length(): number {
    return this.n;
  }

  private readonly compare = (a: number, b: number): number =>
    compareKeys(
      this.keys[a] as number,
      this.idRank[a] as number,
      this.keys[b] as number,
      this.idRank[b] as number,
    );

  /** The channels of rows `start`..`end` of the order. */
  channels(start: number, end: number): number[] {
    const stop = Math.min(end, this.n);
    if (stop > this.ranked) this.rankFirst(stop);
    const out: number[] = [];
    for (let i = start; i < stop; i++) out.push(this.rows[this.positions[i] as number] as number);
    return out;
  }

  slice(start: number, end: number): LinkDirectionState[] {
    return this.channels(start, end).map((c) => stateAt(this.frame, c));
  }

  /** Puts the first `k` rows in order (selected and sorted while few, else the rest sorted whole). */
  private rankFirst(k: number): void {
    const n = this.n;
    const rest = this.positions.subarray(this.ranked);
    if (k > n / 8) {
      rest.sort(this.compare);
      this.ranked = n;
      return;
    }
    select(rest, k - this.ranked, this.compare);
    rest.subarray(0, k - this.ranked).sort(this.compare);
    this.ranked = k;
  }
}

/** Rearranges `a` so its first `k` elements are the `k` smallest by `compare` (in no order). */
function select(a: Uint32Array, k: number, compare: (x: number, y: number) => number): void {
  let lo = 0;
  let hi = a.length - 1;
  const swap = (i: number, j: number) => {
    const t = a[i] as number;
    a[i] = a[j] as number;
    a[j] = t;
  };
  while (hi > lo) {
    const mid = (lo + hi) >>> 1;
    if (compare(a[mid] as number, a[lo] as number) < 0) swap(mid, lo);
    if (compare(a[hi] as number, a[lo] as number) < 0) swap(hi, lo);
    if (compare(a[hi] as number, a[mid] as number) < 0) swap(hi, mid);
    const pivot = a[mid] as number;
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (compare(a[i] as number, pivot) < 0) i++;
      while (compare(a[j] as number, pivot) > 0) j--;
      if (i <= j) {
        swap(i, j);
        i++;
        j--;
      }
    }
    // [lo..j] ≤ pivot ≤ [i..hi]: go on in the part holding position k-1.
    if (k - 1 <= j) hi = j;
    else if (k - 1 >= i) lo = i;
    else return;
  }
}
