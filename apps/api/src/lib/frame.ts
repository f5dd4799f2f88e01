import type { LinkDirectionState } from '@fabscope/contracts';
import { CATEGORY_NAMES, type CategoryName, type CategoryValues } from '@fabscope/topology';
import { directionErrors } from './link-errors.ts';
import type { LinkIndex } from './link-index.ts';
import type { PortRates } from './port-rates.ts';

/**
 * Every link direction at one instant as columns in the LinkIndex's channel order, computed once per tick
 * (lib/utilization.ts) and read by the summary, history, stream, health watch and rankings.
 */
export interface LinkFrame {
  readonly index: LinkIndex;
  /** When the store answered (Unix ms). */
  readonly timeMs: number;
  /** Age of the newest sample behind it when it was read, null when there was none. */
  readonly lastSampleAgeSeconds: number | null;
  readonly bytesPerSecond: Float64Array;
  readonly packetsPerSecond: Float64Array;
  readonly transmitWaitTicksPerSecond: Float64Array;
  readonly transmitWaitFraction: Float64Array;
  /** bytes/s over the link's data rate, never clamped; NaN unknown (stale). */
  readonly utilization: Float64Array;
  /** 1 up, 0 down, −1 unknown. */
  readonly linkUp: Int8Array;
  /** The error counters together per second (errorsPerSecond); NaN when none is known. */
  readonly errorsPerSecond: Float64Array;
  /** Each PM category as a fraction of its threshold; NaN unknown. */
  readonly categories: Readonly<Record<CategoryName, Float64Array>>;
  /** The store's port readings the frame was computed from (for the individual error rates). */
  readonly ports: ReadonlyMap<string, PortRates>;
  /** Per port of the topology (index.portList), 1 when `ports` has a fresh reading of it. */
  readonly portsRead: Uint8Array;
}

/** Unknown (null) as the columns keep it. */
export function column(value: number | null): number {
  return value === null ? Number.NaN : value;
}

/** A column's value as the objects and the wire carry it: NaN is unknown, null. */
export function known(value: number): number | null {
  return Number.isNaN(value) ? null : value;
}

export function emptyFrame(
  index: LinkIndex,
  timeMs: number,
  lastSampleAgeSeconds: number | null,
  ports: ReadonlyMap<string, PortRates>,
): LinkFrame {
  const n = index.channels.length;
  return {
    index,
    timeMs,
    lastSampleAgeSeconds,
    bytesPerSecond: new Float64Array(n),
    packetsPerSecond: new Float64Array(n),
    transmitWaitTicksPerSecond: new Float64Array(n),
    transmitWaitFraction: new Float64Array(n),
    utilization: new Float64Array(n),
    linkUp: new Int8Array(n),
    errorsPerSecond: new Float64Array(n),
    categories: Object.fromEntries(CATEGORY_NAMES.map((c) => [c, new Float64Array(n)])) as Record<
      CategoryName,
      Float64Array
    >,
    ports,
    portsRead: new Uint8Array(index.portList.length),
  };
}

/** portsRead from the frame's `ports` (frames not computed from a snapshot channel by channel). */
export function markPortsRead(frame: LinkFrame): void {
  const { portList } = frame.index;
  for (let i = 0; i < portList.length; i++)
    if (frame.ports.has(portList[i] as string)) frame.portsRead[i] = 1;
}

/** Direction `c`'s link state from the frame's column. */
export function linkUpAt(frame: LinkFrame, c: number): boolean | null {
  const v = frame.linkUp[c] as number;
  return v < 0 ? null : v === 1;
}

/** Direction `c`'s six categories from the frame's columns. */
export function categoriesAt(frame: LinkFrame, c: number): CategoryValues {
  const k = frame.categories;
  return {
    integrity: known(k.integrity[c] as number),
    congestion: known(k.congestion[c] as number),
    smaCongestion: known(k.smaCongestion[c] as number),
    bubble: known(k.bubble[c] as number),
    security: known(k.security[c] as number),
    routing: known(k.routing[c] as number),
  };
}

/**
 * Direction `c` as the API answers it, read from the frame's columns (nothing computed again), its
 * individual error rates from the two ends' readings. Made only for what a route returns.
 */
export function stateAt(frame: LinkFrame, c: number): LinkDirectionState {
  const channel = frame.index.channels[c];
  if (channel === undefined) throw new RangeError(`no channel ${c} in a frame of ${frame.linkUp.length}`);
  const fixed = channel.fixed;
  const bytes = frame.bytesPerSecond[c] as number;
  // One literal with every field, in the wire's order: fast objects, the same JSON every time.
  return {
    id: fixed.id,
    linkId: fixed.linkId,
    kind: fixed.kind,
    from: fixed.from,
    to: fixed.to,
    capacityBytesPerSecond: fixed.capacityBytesPerSecond,
    utilization: known(frame.utilization[c] as number),
    bytesPerSecond: known(bytes),
    packetsPerSecond: known(frame.packetsPerSecond[c] as number),
    transmitWaitTicksPerSecond: known(frame.transmitWaitTicksPerSecond[c] as number),
    transmitWaitFraction: known(frame.transmitWaitFraction[c] as number),
    linkUp: linkUpAt(frame, c),
    stale: Number.isNaN(bytes),
    errors: directionErrors(frame.ports.get(channel.fromKey), frame.ports.get(channel.toKey)),
    errorsPerSecond: known(frame.errorsPerSecond[c] as number),
    categories: categoriesAt(frame, c),
  };
}

const everyState = new WeakMap<LinkFrame, LinkDirectionState[]>();

/** Every direction of the frame as objects, made once per frame on first use. */
export function statesOf(frame: LinkFrame): LinkDirectionState[] {
  let states = everyState.get(frame);
  if (states === undefined) {
    states = Array.from(frame.linkUp, (_, c) => stateAt(frame, c));
    everyState.set(frame, states);
  }
  return states;
}
