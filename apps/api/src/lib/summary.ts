import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Summary } from '@fabscope/contracts';
import { CATEGORY_NAMES, categoryBucket } from '@fabscope/topology';
import type { LinkFrame } from './frame.ts';
import type { CategoryHistograms } from './link-errors.ts';

/** The fabric at one instant in a few numbers: the stream's and the history's `summary`. */
export type FabricSummary = Summary;

export function utilizationBucket(utilization: number): number {
  return Math.min(9, Math.max(0, Math.floor(utilization * 10)));
}

/** The live summary made of each frame (frames are never changed once made). */
const liveSummaries = new WeakMap<LinkFrame, FabricSummary>();

/**
 * The summary of a frame: the utilization histogram per link kind, the hosts' transmit and the stale
 * directions; with `live`, the PM categories' histograms and the ports without data too. Stamped `timeMs`.
 */
export function summarizeFrame(frame: LinkFrame, live: boolean, timeMs = frame.timeMs): FabricSummary {
  const kept = live ? liveSummaries.get(frame) : undefined;
  if (kept !== undefined) return { ...kept, time: new Date(timeMs).toISOString() };
  const summary = utilizationSummary(frame, timeMs);
  if (live) {
    summary.categories = categoryHistogramsOf(frame);
    summary.portsWithoutData = portsWithoutData(frame);
    liveSummaries.set(frame, summary);
  }
  return summary;
}

/** summarizeFrame(frame, true, timeMs) with a turn of the event loop between its three passes. */
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

/** Per category and link kind, opatop's five bars and the unknown. */
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
