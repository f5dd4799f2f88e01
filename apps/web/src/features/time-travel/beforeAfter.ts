import type { LinkDirectionState } from '@fabscope/contracts';
import { naturalCompare } from '@fabscope/contracts/names';

/** Two instants compared by direction; one unknown at either instant is listed apart, never a change. */

export interface LinkChange {
  id: string;
  kind: LinkDirectionState['kind'];
  before: number;
  after: number;
  /** after − before, utilization fraction. */
  delta: number;
  /** XmitWait share of time at each instant, null when unknown there. */
  waitBefore: number | null;
  waitAfter: number | null;
  /** after − before of the wait share; null when either side is unknown. */
  waitDelta: number | null;
  /** The larger of |delta| and |waitDelta|: what ranks the change. */
  size: number;
  bytesPerSecondBefore: number | null;
  bytesPerSecondAfter: number | null;
}

export interface LinkComparison {
  /** Biggest change of utilization or wait first, ties by id. */
  changes: LinkChange[];
  /** Directions unknown at one of the two instants. */
  unknown: number;
}

export function compareLinks(
  before: readonly LinkDirectionState[],
  after: readonly LinkDirectionState[],
  options: { limit: number; minDelta?: number } = { limit: 10 },
): LinkComparison {
  const minDelta = options.minDelta ?? 0.01;
  const earlier = new Map(before.map((l) => [l.id, l]));
  const changes: LinkChange[] = [];
  let unknown = 0;
  for (const a of after) {
    const b = earlier.get(a.id);
    if (!b || b.utilization === null || a.utilization === null) {
      unknown++;
      continue;
    }
    const delta = a.utilization - b.utilization;
    const waitBefore = known(b.transmitWaitFraction);
    const waitAfter = known(a.transmitWaitFraction);
    // AR's fix can show as wait falling while utilization stays at 99 %: either change lists a direction.
    const waitDelta = waitBefore === null || waitAfter === null ? null : waitAfter - waitBefore;
    const size = Math.max(Math.abs(delta), Math.abs(waitDelta ?? 0));
    if (size < minDelta) continue;
    changes.push({
      id: a.id,
      kind: a.kind,
      before: b.utilization,
      after: a.utilization,
      delta,
      waitBefore,
      waitAfter,
      waitDelta,
      size,
      bytesPerSecondBefore: b.bytesPerSecond,
      bytesPerSecondAfter: a.bytesPerSecond,
    });
  }
  changes.sort((x, y) => y.size - x.size || naturalCompare(x.id, y.id));
  return { changes: changes.slice(0, Math.max(0, options.limit)), unknown };
}

function known(v: number | null): number | null {
  return v !== null && Number.isFinite(v) ? v : null;
}

/** The relative change of a total ("+98 %"), or null when either side is unknown or zero. */
export function relativeChange(before: number | null, after: number | null): number | null {
  if (before === null || after === null || before === 0) return null;
  return (after - before) / before;
}

/** Directions over the congestion threshold (its PM category at 1 × or more: what an alarm counts), by link kind. */
export interface CongestedCounts {
  isl: number;
  host: number;
  /** Directions whose congestion is unknown at that instant: not counted either way. */
  unknown: number;
}

export function congestedCounts(links: readonly LinkDirectionState[]): CongestedCounts {
  const counts: CongestedCounts = { isl: 0, host: 0, unknown: 0 };
  for (const l of links) {
    const c = l.categories.congestion;
    if (c === null || !Number.isFinite(c)) counts.unknown++;
    else if (c >= 1) counts[l.kind]++;
  }
  return counts;
}

/** One 10 % utilization bucket: link directions in it before and after (ISL and host together). */
export interface HistogramRow {
  label: string;
  before: number | null;
  after: number | null;
}

type Histogram = { isl: readonly number[]; host: readonly number[] };

/** The utilization histogram of both sides, bucket by bucket ("0–10 %" … "90–100 %+"); null where a side is unknown. */
export function histogramRows(before: Histogram | null, after: Histogram | null): HistogramRow[] {
  const count = (h: Histogram | null, i: number) => (h ? (h.isl[i] ?? 0) + (h.host[i] ?? 0) : null);
  return Array.from({ length: 10 }, (_, i) => ({
    label: i === 9 ? '90 % and over' : `${i * 10}–${(i + 1) * 10} %`,
    before: count(before, i),
    after: count(after, i),
  }));
}
