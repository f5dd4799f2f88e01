import { emptyFrame, known, type LinkFrame, markPortsRead } from './frame.ts';
import { directionCategories, directionErrors } from './link-errors.ts';
import type { LinkIndex } from './link-index.ts';
import {
  emptyPortRates,
  isSlotted,
  type PortRates,
  type RatesSnapshot,
  type SlottedPorts,
} from './port-rates.ts';
import { slicedLoop } from './sliced.ts';
import { measuresBetween, writeMeasures } from './utilization.ts';

/** The frame of `snapshot` in `index`'s channel order, each direction computed once. Pure. */
export function frameOf(index: LinkIndex, snapshot: RatesSnapshot): LinkFrame {
  const frame = emptyFrame(index, snapshot.timeMs, snapshot.lastSampleAgeSeconds, snapshot.ports);
  for (let c = 0; c < index.channels.length; c++) writeChannel(frame, c, snapshot);
  return frame;
}

/** Channel `c` of `snapshot` into the frame's columns, and whether its sending port was read. */
function writeChannel(frame: LinkFrame, c: number, snapshot: RatesSnapshot): void {
  const index = frame.index;
  const channel = index.channels[c] as LinkIndex['channels'][number];
  const ports = snapshot.ports;
  let sender: PortRates | undefined;
  let receiver: PortRates | undefined;
  if (isSlotted(ports)) {
    // The embedded store's columns, read by slot into two objects reused channel after channel.
    const slots = channelSlots(index, ports);
    const from = slots.from[c] as number;
    const to = slots.to[c] as number;
    sender = from >= 0 && ports.read[from] === 1 ? ports.readSlot(from, SENDER) : undefined;
    receiver = to >= 0 && ports.read[to] === 1 ? ports.readSlot(to, RECEIVER) : undefined;
  } else {
    sender = ports.get(channel.fromKey);
    receiver = ports.get(channel.toKey);
  }
  if (sender !== undefined) frame.portsRead[index.portOfChannel[c] as number] = 1;
  writeMeasures(frame, c, channel.fixed, measuresBetween(index, channel, snapshot, sender, receiver));
}

/** What a channel's two ends are read into (measuresBetween keeps neither object). */
const SENDER = emptyPortRates();
const RECEIVER = emptyPortRates();

/**
 * Per channel, the slots of its two ports in an embedded store's answers (−1: none yet), made once
 * per index and readings; again when the readings have given slots to more ports since.
 */
const slotMemos = new WeakMap<
  LinkIndex,
  { of: ReadonlyMap<string, number>; slots: number; from: Int32Array; to: Int32Array }
>();

function channelSlots(index: LinkIndex, ports: SlottedPorts): { from: Int32Array; to: Int32Array } {
  const kept = slotMemos.get(index);
  if (kept && kept.of === ports.slotOfKey && kept.slots === ports.slots) return kept;
  const slotOf = (key: string) => {
    const slot = ports.slotOfKey.get(key);
    return slot === undefined || slot >= ports.slots ? -1 : slot;
  };
  const memo = {
    of: ports.slotOfKey,
    slots: ports.slots,
    from: Int32Array.from(index.channels, (ch) => slotOf(ch.fromKey)),
    to: Int32Array.from(index.channels, (ch) => slotOf(ch.toKey)),
  };
  slotMemos.set(index, memo);
  return memo;
}

/** The value `memo` keeps for (`a`, `b`), made by `make` the first time it is asked for. */
function keptFor<A extends object, B extends object, V>(
  memo: WeakMap<A, WeakMap<B, V>>,
  a: A,
  b: B,
  make: () => V,
): V {
  let byB = memo.get(a);
  if (byB === undefined) {
    byB = new WeakMap();
    memo.set(a, byB);
  }
  let value = byB.get(b);
  if (value === undefined) {
    value = make();
    byB.set(b, value);
  }
  return value;
}

const shared = new WeakMap<RatesSnapshot, WeakMap<LinkIndex, LinkFrame>>();
/** Frames of snapshots being computed in slices (frameForSliced), by snapshot and index. */
const slicing = new WeakMap<RatesSnapshot, WeakMap<LinkIndex, Promise<LinkFrame>>>();

/** frameOf, computed once per snapshot and index whoever asks (the sampler and the history share it). */
export function frameFor(index: LinkIndex, snapshot: RatesSnapshot): LinkFrame {
  return keptFor(shared, snapshot, index, () => frameOf(index, snapshot));
}

/**
 * frameFor in slices of the event loop, so requests are answered while a big fabric's frame is
 * computed; a caller asking while it is under way shares it.
 */
export async function frameForSliced(index: LinkIndex, snapshot: RatesSnapshot): Promise<LinkFrame> {
  const cached = shared.get(snapshot)?.get(index);
  if (cached !== undefined) return cached;
  return keptFor(slicing, snapshot, index, () => sliceFrame(index, snapshot));
}

async function sliceFrame(index: LinkIndex, snapshot: RatesSnapshot): Promise<LinkFrame> {
  const frame = emptyFrame(index, snapshot.timeMs, snapshot.lastSampleAgeSeconds, snapshot.ports);
  await slicedLoop(index.channels.length, (c) => writeChannel(frame, c, snapshot));
  // Computed meanwhile by a synchronous caller: that one is the snapshot's frame.
  return keptFor(shared, snapshot, index, () => frame);
}

/** What a store kept of every direction at an instant, in channel order; NaN and −1 unknown. */
export interface KeptDirections {
  bytesPerSecond: Float64Array;
  packetsPerSecond: Float64Array;
  transmitWaitFraction: Float64Array;
  linkUp: Int8Array;
}

/**
 * The frame of what a store kept (the embedded history's ring) and the ports' error rates it read: measured whole
 * directions (no XmitWait ticks), errors and categories from the two ports, as frameOf puts them together.
 */
export function frameOfKept(
  index: LinkIndex,
  timeMs: number,
  kept: KeptDirections,
  ports: ReadonlyMap<string, PortRates>,
): LinkFrame {
  const frame = emptyFrame(index, timeMs, null, ports);
  const n = index.channels.length;
  for (let c = 0; c < n; c++) {
    const channel = index.channels[c] as LinkIndex['channels'][number];
    const up = kept.linkUp[c] as number;
    const traffic = {
      bytesPerSecond: known(kept.bytesPerSecond[c] as number),
      packetsPerSecond: known(kept.packetsPerSecond[c] as number),
      transmitWaitTicksPerSecond: null,
      transmitWaitFraction: known(kept.transmitWaitFraction[c] as number),
    };
    const errors = directionErrors(ports.get(channel.fromKey), ports.get(channel.toKey));
    writeMeasures(frame, c, channel.fixed, {
      ...traffic,
      linkUp: up < 0 ? null : up === 1,
      errors,
      categories: directionCategories(errors, traffic, index.categoryConfig),
    });
  }
  markPortsRead(frame);
  return frame;
}
