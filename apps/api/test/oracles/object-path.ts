// The object path: each link direction as a LinkDirectionState object, put together field by field
// from the store's answer. The API computes columns (src/lib/frame-from-rates.ts); tests and benches
// check those columns, the summary, the stream message and the history against these objects.
import type { LinkDirectionState } from '@fabscope/contracts';
import { CATEGORY_NAMES, type CategoryValues, categoryBucket, utilizationOf } from '@fabscope/topology';
import { emptyFrame, type LinkFrame, markPortsRead } from '../../src/lib/frame.ts';
import { type CategoryHistograms, errorsPerSecond, UNKNOWN_CATEGORIES } from '../../src/lib/link-errors.ts';
import type { ChannelKeys, LinkIndex } from '../../src/lib/link-index.ts';
import type { PortRates, RatesSnapshot } from '../../src/lib/port-rates.ts';
import { type FabricSummary, utilizationBucket } from '../../src/lib/summary.ts';
import { type DirectionMeasures, measuresBetween, reportsCategories } from '../../src/lib/utilization.ts';
import type { LinkHistory } from '../../src/store/link-history.ts';

/** What the store measured of one direction, its two ports looked up in `snapshot.ports`. */
export function measuresOf(
  index: LinkIndex,
  channel: ChannelKeys,
  snapshot: RatesSnapshot,
): DirectionMeasures {
  return measuresBetween(
    index,
    channel,
    snapshot,
    snapshot.ports.get(channel.fromKey),
    snapshot.ports.get(channel.toKey),
  );
}

/** A direction's state from its measures: utilization the fraction of capacity, clamped; stale without a rate. */
export function directionState(fixed: ChannelKeys['fixed'], m: DirectionMeasures): LinkDirectionState {
  const capacity = fixed.capacityBytesPerSecond;
  const bytes = m.bytesPerSecond;
  const pm = reportsCategories(fixed);
  return {
    id: fixed.id,
    linkId: fixed.linkId,
    kind: fixed.kind,
    from: fixed.from,
    to: fixed.to,
    capacityBytesPerSecond: capacity,
    utilization: utilizationOf(bytes, capacity),
    bytesPerSecond: bytes,
    packetsPerSecond: m.packetsPerSecond,
    transmitWaitTicksPerSecond: m.transmitWaitTicksPerSecond,
    transmitWaitFraction: m.transmitWaitFraction,
    linkUp: m.linkUp,
    stale: bytes === null,
    errors: m.errors,
    errorsPerSecond: errorsPerSecond(m.errors),
    categories: pm ? m.categories : (UNKNOWN_CATEGORIES as CategoryValues),
  };
}

/** Every direction of `snapshot` as objects, in channel order. */
export function linkDirectionStates(index: LinkIndex, snapshot: RatesSnapshot): LinkDirectionState[] {
  return index.channels.map((channel) => directionState(channel.fixed, measuresOf(index, channel, snapshot)));
}

/** The summary of the objects; with the snapshot, the categories and the ports without data too. */
export function summarize(
  index: LinkIndex,
  states: LinkDirectionState[],
  timeMs: number,
  snapshot?: RatesSnapshot,
): FabricSummary {
  const histogram = { isl: new Array<number>(10).fill(0), host: new Array<number>(10).fill(0) };
  let hostTransmit = 0;
  let hostKnown = 0;
  let staleLinks = 0;
  states.forEach((state, i) => {
    if (state.utilization === null) {
      staleLinks++;
      return;
    }
    const bucket = histogram[state.kind];
    const b = utilizationBucket(state.utilization);
    bucket[b] = (bucket[b] ?? 0) + 1;
    if (index.channels[i]?.fromIsHost && state.bytesPerSecond !== null) {
      hostTransmit += state.bytesPerSecond;
      hostKnown++;
    }
  });
  const summary: FabricSummary = {
    time: new Date(timeMs).toISOString(),
    hostTransmitBytesPerSecond: hostKnown > 0 ? hostTransmit : null,
    histogram,
    staleLinks,
  };
  if (snapshot) {
    summary.categories = categoryHistograms(states);
    let without = 0;
    for (const key of index.portKeys) if (!snapshot.ports.has(key)) without++;
    summary.portsWithoutData = without;
  }
  return summary;
}

/** Per category and link kind, opatop's five bars and the unknown, over the objects. */
export function categoryHistograms(
  states: readonly { kind: string; categories: CategoryValues }[],
): CategoryHistograms {
  const out = Object.fromEntries(
    CATEGORY_NAMES.map((c) => [c, { isl: [0, 0, 0, 0, 0], host: [0, 0, 0, 0, 0], unknown: 0 }]),
  ) as CategoryHistograms;
  for (const state of states) {
    for (const name of CATEGORY_NAMES) {
      const value = state.categories[name];
      const entry = out[name];
      if (value === null) {
        entry.unknown++;
        continue;
      }
      const bars = state.kind === 'isl' ? entry.isl : entry.host;
      const b = categoryBucket(value);
      bars[b] = (bars[b] ?? 0) + 1;
    }
  }
  return out;
}

/** Unknown (null) as the columns keep it. */
function column(value: number | null): number {
  return value === null ? Number.NaN : value;
}

/** A frame of directions already made as objects (in `index`'s channel order). */
export function frameFromStates(
  index: LinkIndex,
  states: readonly LinkDirectionState[],
  timeMs: number,
  ports: ReadonlyMap<string, PortRates> = new Map(),
): LinkFrame {
  const frame = emptyFrame(index, timeMs, null, ports);
  writeStates(frame, states);
  markPortsRead(frame);
  return frame;
}

function writeStates(frame: LinkFrame, states: readonly LinkDirectionState[]): void {
  if (states.length !== frame.index.channels.length)
    throw new RangeError(`expected ${frame.index.channels.length} link directions, got ${states.length}`);
  const k = frame.categories;
  states.forEach((s, c) => {
    frame.bytesPerSecond[c] = column(s.bytesPerSecond);
    frame.packetsPerSecond[c] = column(s.packetsPerSecond);
    frame.transmitWaitTicksPerSecond[c] = column(s.transmitWaitTicksPerSecond);
    frame.transmitWaitFraction[c] = column(s.transmitWaitFraction);
    frame.utilization[c] = column(s.utilization);
    frame.linkUp[c] = s.linkUp === null ? -1 : s.linkUp ? 1 : 0;
    frame.errorsPerSecond[c] = column(s.errorsPerSecond);
    k.integrity[c] = column(s.categories.integrity);
    k.congestion[c] = column(s.categories.congestion);
    k.smaCongestion[c] = column(s.categories.smaCongestion);
    k.bubble[c] = column(s.categories.bubble);
    k.security[c] = column(s.categories.security);
    k.routing[c] = column(s.categories.routing);
  });
}

/** One frame per fabric, written again for each record (the history copies what it keeps). */
const recording = new WeakMap<LinkIndex, LinkFrame>();

/** Records directions made as objects into a history, as its frame (no port readings). */
export function recordStates(
  history: LinkHistory,
  index: LinkIndex,
  timeMs: number,
  states: readonly LinkDirectionState[],
  summary: FabricSummary,
): number {
  let frame = recording.get(index);
  if (frame === undefined) {
    frame = emptyFrame(index, 0, null, new Map());
    recording.set(index, frame);
  }
  writeStates(frame, states);
  return history.recordFrame(timeMs, frame, summary);
}
