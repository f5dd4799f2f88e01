import { naturalCompare } from '@fabscope/contracts/names';
import type { CompactSnapshot, LoadStats, PodStats, TierSummary } from '../api/types.ts';
import type { TierGroups } from './tierGroups.ts';

/** The load per tier pair and per pod of one tick: one pass over the per-channel arrays. */

/** Utilization from which a direction counts as hot (opatop's top buckets). */
export const HOT_UTILIZATION = 0.8;

// Running figures of each row and pod half in one Float64Array: a tick allocates nothing.
const DIRECTIONS = 0;
const KNOWN = 1;
const SUM = 2;
const MAX = 3;
const HOT = 4;
const BYTES = 5;
const BYTES_KNOWN = 6;
const WAIT = 7;
const WAIT_KNOWN = 8;
const ERRORS = 9;
const FIELDS = 10;

function plus(acc: Float64Array, at: number, by: number): void {
  acc[at] = (acc[at] as number) + by;
}

/** A value as a number: NaN when unknown (null, absent). */
function numberOf(v: number | null | undefined): number {
  return typeof v === 'number' ? v : Number.NaN;
}

/** Adds one direction's values (NaN or infinite: unknown) to the figures at `at`. */
function add(acc: Float64Array, at: number, u: number, b: number, w: number): void {
  plus(acc, at + DIRECTIONS, 1);
  // x - x is 0 for finite x only (NaN for NaN and ±Infinity).
  if (w - w === 0) {
    acc[at + WAIT] = Math.max(acc[at + WAIT] as number, w);
    acc[at + WAIT_KNOWN] = 1;
  }
  if (b - b === 0) {
    plus(acc, at + BYTES, b);
    acc[at + BYTES_KNOWN] = 1;
  }
  if (u - u !== 0) return;
  plus(acc, at + KNOWN, 1);
  plus(acc, at + SUM, u);
  acc[at + MAX] = Math.max(acc[at + MAX] as number, u);
  if (u >= HOT_UTILIZATION) plus(acc, at + HOT, 1);
}

function statsAt(acc: Float64Array, at: number, errorsKnown: boolean): LoadStats {
  const known = acc[at + KNOWN] ?? 0;
  return {
    directions: acc[at + DIRECTIONS] ?? 0,
    known,
    mean: known > 0 ? (acc[at + SUM] ?? 0) / known : null,
    max: known > 0 ? (acc[at + MAX] ?? null) : null,
    hot: acc[at + HOT] ?? 0,
    bytesPerSecond: acc[at + BYTES_KNOWN] ? (acc[at + BYTES] ?? 0) : null,
    maxWait: acc[at + WAIT_KNOWN] ? (acc[at + WAIT] ?? 0) : null,
    withErrors: errorsKnown ? (acc[at + ERRORS] ?? 0) : null,
  };
}

/** The load per row and pod of one tick, in one pass that allocates nothing per channel. */
export function summarizeTiers(
  groups: TierGroups,
  utilization: ArrayLike<number | null>,
  bytesPerSecond: ArrayLike<number | null>,
  /** XmitWait share per channel (the compact stream's waitFraction); absent: unknown. */
  waitFraction: ArrayLike<number | null> = [],
  /** Channels with errors (the compact stream's errors list). */
  errorChannels: Iterable<number> = [],
  /** False when no channel's error counters are known (the stream's errorsUnknown = every channel). */
  errorsKnown = true,
): TierSummary {
  const { channelRow, channelPod, channelIsl } = groups;
  const rowCount = groups.rows.length;
  const podCount = groups.pods.length;
  // Rows first, then each pod's ISL and host halves.
  const acc = new Float64Array((rowCount + 2 * podCount) * FIELDS);
  for (let at = MAX; at < acc.length; at += FIELDS) acc[at] = Number.NEGATIVE_INFINITY;
  const podAt = (pod: number, isl: number) => (rowCount + 2 * pod + (isl ? 0 : 1)) * FIELDS;
  const n = channelRow.length;
  for (let c = 0; c < n; c++) {
    const u = numberOf(utilization[c]);
    const b = numberOf(bytesPerSecond[c]);
    const w = numberOf(waitFraction[c]);
    const row = channelRow[c] as number;
    if (row >= 0 && row < rowCount) add(acc, row * FIELDS, u, b, w);
    const pod = channelPod[c] as number;
    if (pod >= 0 && pod < podCount) add(acc, podAt(pod, channelIsl[c] as number), u, b, w);
  }
  // Each channel with errors once, as many as the list names (a Set's, or the stream's distinct ones).
  const counted = new Set<number>();
  for (const c of errorChannels) {
    if (!Number.isInteger(c) || c < 0 || c >= n || counted.has(c)) continue;
    counted.add(c);
    const row = channelRow[c] as number;
    if (row >= 0 && row < rowCount) plus(acc, row * FIELDS + ERRORS, 1);
    const pod = channelPod[c] as number;
    if (pod >= 0 && pod < podCount) plus(acc, podAt(pod, channelIsl[c] as number) + ERRORS, 1);
  }
  const pods: PodStats[] = groups.pods.map((p, i) => ({
    ...p,
    isl: statsAt(acc, podAt(i, 1), errorsKnown),
    host: statsAt(acc, podAt(i, 0), errorsKnown),
  }));
  pods.sort((a, b) => (b.isl.max ?? -1) - (a.isl.max ?? -1) || naturalCompare(a.name, b.name));
  return {
    rows: groups.rows.map((info, i) => ({ ...info, ...statsAt(acc, i * FIELDS, errorsKnown) })),
    pods,
  };
}

/** The channels a compact message lists with errors. */
function errorChannels(snapshot: CompactSnapshot): number[] {
  return (snapshot.errors ?? []).map(([c]) => c);
}

/** summarizeTiers over a compact message's arrays. */
export function summarizeSnapshot(groups: TierGroups, snapshot: CompactSnapshot): TierSummary {
  return summarizeTiers(
    groups,
    snapshot.utilization,
    snapshot.bytesPerSecond,
    snapshot.waitFraction,
    errorChannels(snapshot),
    (snapshot.errorsUnknown ?? 0) < snapshot.utilization.length,
  );
}

/** A compact message's tier summary: the one the worker made when it fits `groups`, else made now. */
export function tierSummaryOf(groups: TierGroups, snapshot: CompactSnapshot): TierSummary {
  const carried = snapshot.tiers;
  if (
    carried &&
    carried.rows.length === groups.rows.length &&
    carried.pods.length === groups.pods.length &&
    snapshot.utilization.length === groups.channelRow.length
  ) {
    return carried;
  }
  return summarizeSnapshot(groups, snapshot);
}
