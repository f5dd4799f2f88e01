import type {
  CompactSnapshot,
  FabricSnapshot,
  Health,
  LinkDirectionState,
  LiveSnapshot,
  Summary,
} from '../api/types.ts';
import { compareByUtilization } from './ranking.ts';

/**
 * A past instant in the shape the live stream has, so every panel draws it unchanged: the full
 * encoding for drawable fabrics, the compact one (per-channel arrays + the busiest directions)
 * for big fabrics. Channel c is link ⌊c/2⌋ of the topology, a→b when even (as the stream).
 */

/** Busiest directions per kind kept in a compact snapshot, as the stream sends. */
export const COMPACT_TOP = 50;

export function pastSnapshot(
  answer: { time: string; links: LinkDirectionState[] },
  summary: Summary,
  health: Health,
  compact: { channelIndex: ReadonlyMap<string, number>; channels: number } | null,
): LiveSnapshot {
  if (!compact) return { time: answer.time, health, summary, links: answer.links } satisfies FabricSnapshot;
  const utilization: (number | null)[] = new Array(compact.channels).fill(null);
  const bytesPerSecond: (number | null)[] = new Array(compact.channels).fill(null);
  const waitFraction: (number | null)[] = new Array(compact.channels).fill(null);
  const linkDown: number[] = [];
  for (const l of answer.links) {
    const c = compact.channelIndex.get(l.id);
    if (c === undefined) continue;
    utilization[c] = l.stale ? null : l.utilization;
    bytesPerSecond[c] = l.stale ? null : l.bytesPerSecond;
    waitFraction[c] = l.stale ? null : l.transmitWaitFraction;
    if (l.linkUp === false) linkDown.push(c);
  }
  const busiest = (kind: LinkDirectionState['kind']) =>
    answer.links
      .filter((l) => l.kind === kind)
      .sort(compareByUtilization)
      .slice(0, COMPACT_TOP);
  const top = [...busiest('isl'), ...busiest('host')].sort(compareByUtilization);
  return {
    time: answer.time,
    health,
    summary,
    utilization,
    bytesPerSecond,
    waitFraction,
    linkDown: linkDown.sort((a, b) => a - b),
    // History keeps no error rates (docs/history.md): none is listed, every channel's are unknown.
    errors: [],
    errorsUnknown: compact.channels,
    top,
  } satisfies CompactSnapshot;
}
