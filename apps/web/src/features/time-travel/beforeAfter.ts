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
  bytesPerSecondBefore: number | null;
  bytesPerSecondAfter: number | null;
}

export interface LinkComparison {
  /** Biggest |delta| first, ties by id. */
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
    if (Math.abs(delta) < minDelta) continue;
    changes.push({
      id: a.id,
      kind: a.kind,
      before: b.utilization,
      after: a.utilization,
      delta,
      bytesPerSecondBefore: b.bytesPerSecond,
      bytesPerSecondAfter: a.bytesPerSecond,
    });
  }
  changes.sort((x, y) => Math.abs(y.delta) - Math.abs(x.delta) || naturalCompare(x.id, y.id));
  return { changes: changes.slice(0, Math.max(0, options.limit)), unknown };
}

/** The relative change of a total ("+98 %"), or null when either side is unknown or zero. */
export function relativeChange(before: number | null, after: number | null): number | null {
  if (before === null || after === null || before === 0) return null;
  return (after - before) / before;
}
