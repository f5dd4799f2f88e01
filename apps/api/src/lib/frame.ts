import { setImmediate as nextTurn } from 'node:timers/promises';
import {
  CATEGORY_NAMES,
  type CategoryName,
  type CategoryValues,
  categoryBucket,
  utilizationOf,
} from '@fabscope/topology';
import { SlotPorts } from '../store/port-readings.ts';
import { emptyPortRates, type PortRates, type RatesSnapshot } from '../store/types.ts';
import { type CategoryHistograms, directionCategories, directionErrors } from './link-errors.ts';
import { slicedLoop } from './sliced.ts';
import {
  type ChannelKeys,
  type DirectionMeasures,
  directionState,
  errorSumAt,
  type FabricSummary,
  type LinkDirectionState,
  type LinkIndex,
  measuresBetween,
  reportsWaitAndCategories,
  utilizationBucket,
} from './utilization.ts';

/**
 * Every link direction at one instant as columns, in the LinkIndex's channel order (channel c is
 * `index.channels[c]`; link i of /topology is channels 2i and 2i+1). What the sampler computes
 * once per scrape, and what the summary, the history's frame, the compact stream message, the
 * health watch and the rankings read; a direction's `LinkDirectionState` object is made from it
 * only for what a route returns (`stateAt`).
 *
 * Numbers are Float64Arrays with NaN for unknown (a JSON null, never 0); the link state an Int8Array:
 * 1 up, 0 down, −1 unknown. The values are `directionState`'s, field for field (utilization,
 * staleness, the Ethernet rule: no XmitWait, no categories), so an object made from the frame
 * equals the one `linkDirectionStates` makes from the same snapshot (tested). A source's NaN is
 * unknown here (its object carried NaN, which JSON wrote as null too).
 *
 * The error sum (`errorsPerSecond`) and the six PM categories are dense columns: the summary,
 * the stream and every ranking read them for every direction. The 24 individual error rates
 * are not: they are the two ends' readings (`ports`, the store's answer, kept by reference), and a
 * direction's are derived from them (`directionErrors`) when its object is made — the columns a
 * frame would otherwise carry (24 × 8 bytes × 166k directions, 32 MB a tick at fat-tree-27648) for
 * the few directions a page shows.
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
  /** bytes/s over the link's data rate, clamped to 1 (utilizationOf); NaN unknown (stale). */
  readonly utilization: Float64Array;
  /** 1 up, 0 down, −1 unknown. */
  readonly linkUp: Int8Array;
  /** The error counters together per second (errorsPerSecond); NaN when none is known. */
  readonly errorsPerSecond: Float64Array;
  /** Each PM category as a fraction of its threshold; NaN unknown. */
  readonly categories: Readonly<Record<CategoryName, Float64Array>>;
  /** The store's port readings the frame was computed from (for the individual error rates). */
  readonly ports: ReadonlyMap<string, PortRates>;
  /**
   * Per port of the topology (index.portList), 1 when `ports` has a fresh reading of it: the
   * ports without data and the collection gaps read it instead of 166k key lookups each.
   */
  readonly portsRead: Uint8Array;
}

/** Unknown (null) as the columns keep it. */
function column(value: number | null): number {
  return value === null ? Number.NaN : value;
}

/** A column's value as the objects and the wire carry it: NaN is unknown, null. */
export function known(value: number): number | null {
  return Number.isNaN(value) ? null : value;
}

/**
 * The frame of `snapshot` in `index`'s channel order: each direction computed once with the one
 * formula (`measuresOf` → `directionState`, lib/utilization.ts over @fabscope/topology's
 * link-direction.ts) and written into the columns. Pure.
 */
export function frameOf(index: LinkIndex, snapshot: RatesSnapshot): LinkFrame {
  const n = index.channels.length;
  const frame = emptyFrame(index, snapshot.timeMs, snapshot.lastSampleAgeSeconds, snapshot.ports);
  for (let c = 0; c < n; c++) writeChannel(frame, c, snapshot);
  return frame;
}

/** Channel `c` of `snapshot` into the frame's columns, and whether its sending port was read. */
function writeChannel(frame: LinkFrame, c: number, snapshot: RatesSnapshot): void {
  const index = frame.index;
  const channel = index.channels[c] as LinkIndex['channels'][number];
  const ports = snapshot.ports;
  let sender: PortRates | undefined;
  let receiver: PortRates | undefined;
  if (ports instanceof SlotPorts) {
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

/** What writeChannel reads a channel's two ends into (measuresBetween keeps neither object). */
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

function channelSlots(index: LinkIndex, ports: SlotPorts): { from: Int32Array; to: Int32Array } {
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

/**
 * directionState's fields of one direction, written into the columns without making its object:
 * the same functions (utilizationOf, errorsPerSecond, reportsWaitAndCategories), the same values
 * (tested against the objects).
 */
function writeMeasures(frame: LinkFrame, c: number, fixed: ChannelKeys['fixed'], m: DirectionMeasures): void {
  const pm = reportsWaitAndCategories(fixed);
  frame.bytesPerSecond[c] = column(m.bytesPerSecond);
  frame.packetsPerSecond[c] = column(m.packetsPerSecond);
  frame.transmitWaitTicksPerSecond[c] = pm ? column(m.transmitWaitTicksPerSecond) : Number.NaN;
  frame.transmitWaitFraction[c] = pm ? column(m.transmitWaitFraction) : Number.NaN;
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

/**
 * frameOf in slices of the event loop (lib/sliced.ts), kept as frameFor keeps its frames: the
 * sampler computes each tick's frame so at fabric size (165,888 directions, ~0.3 s) while requests
 * go on being answered; whoever asks frameFor for the same snapshot afterwards gets this frame.
 */
export async function frameForSliced(index: LinkIndex, snapshot: RatesSnapshot): Promise<LinkFrame> {
  const cached = shared.get(snapshot)?.get(index);
  if (cached !== undefined) return cached;
  // Under way for another caller (the sampler's tick and the history of one scrape): the same one.
  return keptFor(slicing, snapshot, index, () => sliceFrame(index, snapshot));
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

/** Frames of snapshots being computed in slices (frameForSliced), by snapshot and index. */
const slicing = new WeakMap<RatesSnapshot, WeakMap<LinkIndex, Promise<LinkFrame>>>();

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
 * The frame of what a store kept (the embedded history's ring) and the ports' error rates it read:
 * each direction's measures as `measuresOf` puts them together for a source that measured whole
 * directions (no XmitWait ticks), its errors from its two ports (`directionErrors`) and its
 * categories from those (`directionCategories`) — the same functions, without a snapshot's maps.
 * Equal to frameOf over the snapshot these columns stand for (tested).
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

/** portsRead from the frame's `ports` (frames not computed from a snapshot channel by channel). */
function markPortsRead(frame: LinkFrame): void {
  const { portList } = frame.index;
  for (let i = 0; i < portList.length; i++)
    if (frame.ports.has(portList[i] as string)) frame.portsRead[i] = 1;
}

const shared = new WeakMap<RatesSnapshot, WeakMap<LinkIndex, LinkFrame>>();

/**
 * frameOf, computed once per snapshot and index whoever asks: the sampler and the embedded
 * history, handed the same snapshot by the store after a scrape, share one frame.
 */
export function frameFor(index: LinkIndex, snapshot: RatesSnapshot): LinkFrame {
  return keptFor(shared, snapshot, index, () => frameOf(index, snapshot));
}

/**
 * A frame of directions already made as objects (in `index`'s channel order): a store that answers
 * past instants as objects, and tests.
 */
export function frameFromStates(
  index: LinkIndex,
  states: readonly LinkDirectionState[],
  timeMs: number,
  ports: ReadonlyMap<string, PortRates> = new Map(),
): LinkFrame {
  if (states.length !== index.channels.length)
    throw new RangeError(`expected ${index.channels.length} link directions, got ${states.length}`);
  const frame = emptyFrame(index, timeMs, null, ports);
  states.forEach((state, c) => {
    writeState(frame, c, state);
  });
  markPortsRead(frame);
  return frame;
}

function emptyFrame(
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

function writeState(frame: LinkFrame, c: number, s: LinkDirectionState): void {
  frame.bytesPerSecond[c] = column(s.bytesPerSecond);
  frame.packetsPerSecond[c] = column(s.packetsPerSecond);
  frame.transmitWaitTicksPerSecond[c] = column(s.transmitWaitTicksPerSecond);
  frame.transmitWaitFraction[c] = column(s.transmitWaitFraction);
  frame.utilization[c] = column(s.utilization);
  frame.linkUp[c] = s.linkUp === null ? -1 : s.linkUp ? 1 : 0;
  frame.errorsPerSecond[c] = column(s.errorsPerSecond);
  const categories = frame.categories;
  categories.integrity[c] = column(s.categories.integrity);
  categories.congestion[c] = column(s.categories.congestion);
  categories.smaCongestion[c] = column(s.categories.smaCongestion);
  categories.bubble[c] = column(s.categories.bubble);
  categories.security[c] = column(s.categories.security);
  categories.routing[c] = column(s.categories.routing);
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
 * Direction `c` as the API answers it, made from the frame: the object `linkDirectionStates` makes
 * for the same snapshot. Made only for what a route returns.
 */
export function stateAt(frame: LinkFrame, c: number): LinkDirectionState {
  const channel = frame.index.channels[c];
  if (channel === undefined) throw new RangeError(`no channel ${c} in a frame of ${frame.linkUp.length}`);
  return directionState(channel.fixed, {
    bytesPerSecond: known(frame.bytesPerSecond[c] as number),
    packetsPerSecond: known(frame.packetsPerSecond[c] as number),
    transmitWaitTicksPerSecond: known(frame.transmitWaitTicksPerSecond[c] as number),
    transmitWaitFraction: known(frame.transmitWaitFraction[c] as number),
    linkUp: linkUpAt(frame, c),
    errors: directionErrors(frame.ports.get(channel.fromKey), frame.ports.get(channel.toKey)),
    categories: categoriesAt(frame, c),
  });
}

const everyState = new WeakMap<LinkFrame, LinkDirectionState[]>();

/**
 * Every direction of the frame as objects, made once per frame on first use (routes that answer
 * every direction: `/links` without a limit, the full stream, exports).
 */
export function statesOf(frame: LinkFrame): LinkDirectionState[] {
  let states = everyState.get(frame);
  if (states === undefined) {
    states = Array.from(frame.linkUp, (_, c) => stateAt(frame, c));
    everyState.set(frame, states);
  }
  return states;
}

/**
 * The summary of a frame, as `summarize` makes it from the objects: the utilization histogram per
 * link kind, the hosts' transmit and the stale directions; with `live`, the PM categories'
 * histograms and the ports without data too (what only the live tick has). Stamped `timeMs`.
 */
export function summarizeFrame(frame: LinkFrame, live: boolean, timeMs = frame.timeMs): FabricSummary {
  // The live summary of a tick's frame is asked for by the sampler and the history alike.
  const kept = live ? liveSummaries.get(frame) : undefined;
  if (kept !== undefined) return { ...kept, time: new Date(timeMs).toISOString() };
  const summary = summarize(frame, live, timeMs);
  if (live) liveSummaries.set(frame, summary);
  return summary;
}

/** The live summary made of each frame (frames are never changed once made). */
const liveSummaries = new WeakMap<LinkFrame, FabricSummary>();

function summarize(frame: LinkFrame, live: boolean, timeMs: number): FabricSummary {
  const summary = utilizationSummary(frame, timeMs);
  if (live) {
    summary.categories = categoryHistogramsOf(frame);
    summary.portsWithoutData = portsWithoutData(frame);
  }
  return summary;
}

/**
 * summarizeFrame(frame, true, timeMs) with a turn of the event loop between its three passes over
 * the directions (utilization, six categories, the ports without data: ~50–100 ms together at
 * fat-tree-27648); made once per frame, as summarizeFrame's.
 */
export async function summarizeLiveInTurns(frame: LinkFrame, timeMs = frame.timeMs): Promise<FabricSummary> {
  let summary = liveSummaries.get(frame);
  if (summary === undefined) {
    const made = utilizationSummary(frame, frame.timeMs);
    await nextTurn();
    made.categories = categoryHistogramsOf(frame);
    await nextTurn();
    made.portsWithoutData = portsWithoutData(frame);
    // Made meanwhile by a synchronous caller: that one is the frame's.
    summary = liveSummaries.get(frame) ?? made;
    liveSummaries.set(frame, summary);
  }
  return { ...summary, time: new Date(timeMs).toISOString() };
}

/** The topology's ports the frame's store had no fresh reading of. */
function portsWithoutData(frame: LinkFrame): number {
  let without = 0;
  for (const read of frame.portsRead) if (read === 0) without++;
  return without;
}

/** The utilization histograms per link kind, the hosts' transmit and the stale directions. */
function utilizationSummary(frame: LinkFrame, timeMs: number): FabricSummary {
  const { index, utilization, bytesPerSecond } = frame;
  const n = utilization.length;
  const isl = new Array<number>(10).fill(0);
  const host = new Array<number>(10).fill(0);
  let hostTransmit = 0;
  let hostKnown = 0;
  let staleLinks = 0;
  for (let c = 0; c < n; c++) {
    const u = utilization[c] as number;
    if (Number.isNaN(u)) {
      staleLinks++;
      continue;
    }
    const bucket = utilizationBucket(u);
    if (index.isl[c] === 1) isl[bucket] = (isl[bucket] as number) + 1;
    else host[bucket] = (host[bucket] as number) + 1;
    if (index.fromHost[c] === 1) {
      const bytes = bytesPerSecond[c] as number;
      if (!Number.isNaN(bytes)) {
        hostTransmit += bytes;
        hostKnown++;
      }
    }
  }
  return {
    time: new Date(timeMs).toISOString(),
    hostTransmitBytesPerSecond: hostKnown > 0 ? hostTransmit : null,
    histogram: { isl, host },
    staleLinks,
  };
}

/** Per category and link kind, opatop's five bars and the unknown (categoryHistograms over the columns). */
export function categoryHistogramsOf(frame: LinkFrame): CategoryHistograms {
  const isl = frame.index.isl;
  const out = {} as CategoryHistograms;
  for (const name of CATEGORY_NAMES) {
    const entry = { isl: [0, 0, 0, 0, 0], host: [0, 0, 0, 0, 0], unknown: 0 };
    const values = frame.categories[name];
    for (let c = 0; c < values.length; c++) {
      const value = values[c] as number;
      if (Number.isNaN(value)) {
        entry.unknown++;
        continue;
      }
      const bars = isl[c] === 1 ? entry.isl : entry.host;
      const b = categoryBucket(value);
      bars[b] = (bars[b] as number) + 1;
    }
    out[name] = entry;
  }
  return out;
}
