import type { LinkDirectionState } from './utilization.ts';

/**
 * The compact stream encoding (`GET /api/v1/stream?view=compact`), for fabrics too big to send
 * every link direction as an object each second. Per-channel values travel as two flat arrays in
 * channel order — link i of `GET /api/v1/topology`'s `links` is channels 2i (a→b) and 2i+1 (b→a) —
 * so a client that holds the topology can place every value without ids. Only the busiest link
 * directions travel as full objects, for the ranked table.
 */

/** Busiest directions kept per link kind (ISL and host) in `top`. */
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
  /** Up to COMPACT_TOP_PER_KIND busiest ISL and host directions each, busiest first, as full objects. */
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

/** Encodes one tick compactly. Pure: the sampler calls it once per tick for every compact client. */
export function compactTick<H, S>(
  tick: { time: string; health: H; summary: S; links: readonly LinkDirectionState[] },
  topPerKind = COMPACT_TOP_PER_KIND,
): CompactTick<H, S> {
  const n = tick.links.length;
  const utilization = new Array<number | null>(n);
  const bytesPerSecond = new Array<number | null>(n);
  const waitFraction = new Array<number | null>(n);
  const linkDown: number[] = [];
  for (let i = 0; i < n; i++) {
    const link = tick.links[i] as LinkDirectionState;
    utilization[i] = roundUtilization(link.utilization);
    bytesPerSecond[i] = roundBytes(link.bytesPerSecond);
    waitFraction[i] = roundUtilization(link.transmitWaitFraction);
    if (link.linkUp === false) linkDown.push(i);
  }
  return {
    time: tick.time,
    health: tick.health,
    summary: tick.summary,
    utilization,
    bytesPerSecond,
    waitFraction,
    linkDown,
    top: busiestPerKind(tick.links, topPerKind),
  };
}
