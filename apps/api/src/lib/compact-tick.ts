import { CATEGORY_NAMES, type CompactStreamMessage, type LinkDirectionState } from '@fabscope/contracts';
import { naturalCompare } from '@fabscope/contracts/names';
import { type LinkFrame, stateAt } from './frame.ts';
import { firstChannels, type LinkSort } from './link-order.ts';

/**
 * The compact stream (`GET /api/v1/stream?view=compact`): per-channel flat arrays in topology order (link i is channels
 * 2i and 2i+1), placed by a client without ids; only the busiest directions travel as objects, for the ranked table.
 */

/** Directions kept per link kind (ISL and host) and per ranking in `top`. */
export const COMPACT_TOP_PER_KIND = 50;

/** Utilization is rounded to this step (0.01 %): finer than any display, and short in JSON. */
export const UTILIZATION_STEP = 1e-4;

/** The compact stream message (contracts' CompactStreamMessage), its health and summary as the caller has them. */
export type CompactTick<H, S> = Omit<CompactStreamMessage, 'health' | 'summary'> & { health: H; summary: S };

export function roundUtilization(value: number | null): number | null {
  if (value === null || !Number.isFinite(value)) return null;
  // Rounding through an integer keeps the JSON short (0.1234, not 0.12340000000000001).
  return Math.round(value / UTILIZATION_STEP) / (1 / UTILIZATION_STEP);
}

function roundBytes(value: number | null): number | null {
  return value === null || !Number.isFinite(value) ? null : Math.round(value);
}

/** Busiest first; unknown after every known value; ties by channel id in natural order, so the order is stable. */
export function compareBusiest(a: LinkDirectionState, b: LinkDirectionState): number {
  const ua = a.utilization;
  const ub = b.utilization;
  if (ua !== null && ub !== null && ua !== ub) return ub - ua;
  if (ua === null && ub !== null) return 1;
  if (ub === null && ua !== null) return -1;
  return naturalCompare(a.id, b.id);
}

/** Encodes one tick compactly from its frame's columns, with objects made only for the directions in `top`. */
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

/** The rankings `top` holds the head of: utilization, XmitWait, then the six PM categories. */
export const TOP_SORTS: readonly LinkSort[] = ['utilization', 'transmitWaitFraction', ...CATEGORY_NAMES];

/**
 * For each link kind, the first `limit` channels of every ranking in TOP_SORTS (link-order.ts),
 * without repeats, in no particular order: a client ranking `top` by any of them gets the API's head.
 */
export function worstChannelsPerKind(frame: LinkFrame, limit: number): number[] {
  if (!Number.isInteger(limit) || limit < 0)
    throw new RangeError(`worstPerKind: limit must be an integer ≥ 0, got ${limit}`);
  const { index } = frame;
  const kept = new Set<number>();
  for (const channels of [index.byKind.isl, index.byKind.host]) {
    for (const sort of TOP_SORTS)
      for (const c of firstChannels(frame, channels, sort, 'desc', limit)) kept.add(c);
  }
  return [...kept];
}
