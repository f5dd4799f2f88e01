import {
  type CategoryValues,
  type DirectionTraffic,
  directionTraffic,
  utilizationOf,
} from '@fabscope/topology';
import { column, type LinkFrame } from './frame.ts';
import {
  directionCategories,
  directionErrors,
  errorsPerSecond,
  type LinkErrors,
  measuresPmCategories,
} from './link-errors.ts';
import type { ChannelKeys, LinkIndex } from './link-index.ts';
import type { DirectionRates, PortRates, RatesSnapshot } from './port-rates.ts';

/**
 * The API's one owner of a direction's figures: a store's measures (`measuresBetween`, on topology's link-direction.ts
 * as the collector's), written into a frame once per tick (`writeMeasures`, the one place utilization is computed).
 */

/** A link is down when either end says so, up when an end says so and none says down. */
export function combineLinkUp(a: boolean | null | undefined, b: boolean | null | undefined): boolean | null {
  if (a === false || b === false) return false;
  if (a === true || b === true) return true;
  return null;
}

/** A direction measured whole at the edge (the collector's per-direction gauges) as traffic. */
function edgeTraffic(d: DirectionRates | undefined): DirectionTraffic {
  return {
    bytesPerSecond: d?.bytesPerSecond ?? null,
    packetsPerSecond: d?.packetsPerSecond ?? null,
    transmitWaitTicksPerSecond: null,
    transmitWaitFraction: d?.transmitWaitFraction ?? null,
  };
}

/** What a store measured of one direction; utilization and staleness follow from it. */
export interface DirectionMeasures {
  bytesPerSecond: number | null;
  packetsPerSecond: number | null;
  transmitWaitTicksPerSecond: number | null;
  transmitWaitFraction: number | null;
  linkUp: boolean | null;
  errors: LinkErrors;
  categories: CategoryValues;
}

/** Per index and channel: the two ends' error rates last combined, and the direction's errors made of them. */
const errorMemos = new WeakMap<LinkIndex, ErrorMemo>();

interface ErrorMemo {
  tx: unknown[];
  rx: unknown[];
  errors: LinkErrors[];
  /** errorsPerSecond of `errors`, per channel; undefined until asked for. */
  sums: (number | null | undefined)[];
}

function errorsOfDirection(
  index: LinkIndex,
  c: number,
  sender: PortRates | undefined,
  receiver: PortRates | undefined,
): LinkErrors {
  const tx = sender?.errors;
  const rx = receiver?.errors;
  let memo = errorMemos.get(index);
  if (memo === undefined) {
    memo = { tx: [], rx: [], errors: [], sums: [] };
    errorMemos.set(index, memo);
  }
  const kept = memo.errors[c];
  if (kept !== undefined && memo.tx[c] === tx && memo.rx[c] === rx) return kept;
  const errors = directionErrors(sender, receiver);
  memo.tx[c] = tx;
  memo.rx[c] = rx;
  memo.errors[c] = errors;
  memo.sums[c] = undefined;
  return errors;
}

/** errorsPerSecond(errors) of channel `c`, kept while its errors are the same object. */
function errorSumAt(index: LinkIndex, c: number, errors: LinkErrors): number | null {
  const memo = errorMemos.get(index);
  if (memo === undefined || memo.errors[c] !== errors) return errorsPerSecond(errors);
  let sum = memo.sums[c];
  if (sum === undefined) {
    sum = errorsPerSecond(errors);
    memo.sums[c] = sum;
  }
  return sum;
}

/**
 * What the store measured of one direction, its two ports already looked up: its traffic from its
 * two ends (or as the source measured it whole), its link state, its errors and their PM categories.
 */
export function measuresBetween(
  index: LinkIndex,
  channel: ChannelKeys,
  snapshot: RatesSnapshot,
  sender: PortRates | undefined,
  receiver: PortRates | undefined,
): DirectionMeasures {
  const directions = snapshot.directions;
  const traffic = directions
    ? edgeTraffic(directions.get(channel.fromKey))
    : directionTraffic(sender, receiver);
  const errors = errorsOfDirection(index, channel.index, sender, receiver);
  return {
    bytesPerSecond: traffic.bytesPerSecond,
    packetsPerSecond: traffic.packetsPerSecond,
    transmitWaitTicksPerSecond: traffic.transmitWaitTicksPerSecond,
    transmitWaitFraction: traffic.transmitWaitFraction,
    linkUp: combineLinkUp(sender?.linkUp, receiver?.linkUp),
    errors,
    categories: directionCategories(errors, traffic, index.categoryConfig),
  };
}

/** Whether a direction's PM categories are known: Ethernet has none (its wait is its pause, kept). */
export function reportsCategories(fixed: ChannelKeys['fixed']): boolean {
  return fixed.network === undefined || measuresPmCategories(fixed.network);
}

/**
 * Direction `c`'s figures into the frame's columns: utilization is bytes/s over the link's capacity,
 * never clamped, NaN (stale) without a rate; Ethernet has no categories.
 */
export function writeMeasures(
  frame: LinkFrame,
  c: number,
  fixed: ChannelKeys['fixed'],
  m: DirectionMeasures,
): void {
  const pm = reportsCategories(fixed);
  frame.bytesPerSecond[c] = column(m.bytesPerSecond);
  frame.packetsPerSecond[c] = column(m.packetsPerSecond);
  frame.transmitWaitTicksPerSecond[c] = column(m.transmitWaitTicksPerSecond);
  frame.transmitWaitFraction[c] = column(m.transmitWaitFraction);
  frame.utilization[c] = column(utilizationOf(m.bytesPerSecond, fixed.capacityBytesPerSecond));
  frame.linkUp[c] = m.linkUp === null ? -1 : m.linkUp ? 1 : 0;
  frame.errorsPerSecond[c] = column(errorSumAt(frame.index, c, m.errors));
  const k = frame.categories;
  const v = m.categories;
  k.integrity[c] = pm ? column(v.integrity) : Number.NaN;
  k.congestion[c] = pm ? column(v.congestion) : Number.NaN;
  k.smaCongestion[c] = pm ? column(v.smaCongestion) : Number.NaN;
  k.bubble[c] = pm ? column(v.bubble) : Number.NaN;
  k.security[c] = pm ? column(v.security) : Number.NaN;
  k.routing[c] = pm ? column(v.routing) : Number.NaN;
}
