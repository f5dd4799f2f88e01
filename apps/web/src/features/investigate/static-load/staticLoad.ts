import type { StaticLoad } from '@fabscope/contracts';
import { formatCount } from '../../../lib/format.ts';

export type StaticLoadGroup = StaticLoad['groups'][number];
export type StaticLoadDirection = StaticLoadGroup['direction'];

const DIRECTION_LABEL: Record<StaticLoadDirection, string> = {
  host: 'to hosts',
  up: 'up',
  across: 'across',
  down: 'down',
};

/** Where a group's output ports lead, as the table says it. */
export function directionLabel(direction: StaticLoadDirection): string {
  return DIRECTION_LABEL[direction];
}

/** A group's busiest port's paths over the mean (1 = even); null when no path crosses it. */
export function imbalance(group: Pick<StaticLoadGroup, 'max' | 'mean'>): number | null {
  return group.mean > 0 ? group.max / group.mean : null;
}

/** "1.00×", "2.33×", or "—". */
export function formatImbalance(ratio: number | null): string {
  return ratio === null ? '—' : `${ratio.toFixed(2)}×`;
}

/** The one path count every switch output port carries, or null when they differ. */
function evenPaths(groups: readonly Pick<StaticLoadGroup, 'min' | 'max'>[]): number | null {
  const first = groups[0];
  if (!first) return null;
  return groups.every((g) => g.min === first.min && g.max === first.min) ? first.min : null;
}

/**
 * What the correlation of paths and measured load says, or why there is nothing to compare: with
 * every port on the same path count (or the load flat) r is undefined, not 0, and says nothing.
 */
export function comparisonText(
  measured: StaticLoad['measured'],
  groups: readonly Pick<StaticLoadGroup, 'min' | 'max'>[] = [],
): string {
  if (measured.ports < 2) return 'No measured load on the switch ports to compare with.';
  const even = evenPaths(groups);
  if (even !== null)
    return `r is undefined: every switch output port carries the same number of static paths (${formatCount(even)}), so the measured load cannot follow them more or less.`;
  const r = measured.correlation;
  if (r === null)
    return `r is undefined: the measured load on ${formatCount(measured.ports)} ports is flat (an idle fabric, or every port alike), so there is nothing to compare.`;
  const strength = Math.abs(r) >= 0.7 ? 'strongly' : Math.abs(r) >= 0.3 ? 'partly' : 'hardly';
  const sign = r < 0 ? ' (inversely)' : '';
  return `Measured load follows the static paths ${strength}${sign}: r = ${r.toFixed(2)} over ${formatCount(measured.ports)} ports.`;
}
