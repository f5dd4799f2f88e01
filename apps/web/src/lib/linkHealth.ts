import type { CategoryName, LinkDirectionState, Summary } from '@fabscope/contracts';
import { CATEGORY_NAMES, naturalCompare } from '@fabscope/contracts/names';
import { formatPerSecond, groupDigits } from './format.ts';

/** A link direction's health: congestion, the six PM categories, opatop-style lights, error marks. */

/** The XmitWait share of time at or above which a direction is marked congested. */
export const CONGESTED_WAIT = 0.1;

/** Whether a direction counts as congested; unknown (null) never does. */
export function isCongested(waitFraction: number | null | undefined): boolean {
  return typeof waitFraction === 'number' && Number.isFinite(waitFraction) && waitFraction >= CONGESTED_WAIT;
}

export const CATEGORY_LABELS: Record<CategoryName, string> = {
  integrity: 'Integrity',
  congestion: 'Congestion',
  smaCongestion: 'SMA congestion',
  bubble: 'Bubble',
  security: 'Security',
  routing: 'Routing',
};

/** The six categories in opatop's order, as the wire lists them. */
export const CATEGORIES: readonly CategoryName[] = CATEGORY_NAMES;

/** A light: green below 75 % of the threshold, amber from 75 %, red at or past it, grey unknown. */
export type Light = 'ok' | 'near' | 'over' | 'unknown';

export type LightScope = 'all' | 'isl' | 'host';

/** /summary's bars of a category for the ports of `scope`; null when it sent none. */
function barsOf(summary: Summary | null, category: CategoryName, scope: LightScope): number[] | null {
  const bars = summary?.categories?.[category];
  if (!bars) return null;
  return scope === 'all' ? bars.isl.map((n, i) => n + (bars.host[i] ?? 0)) : bars[scope];
}

/** opatop's lights per category, from /summary's bars: the worst non-empty bar decides. */
export function categoryLight(summary: Summary | null, category: CategoryName, scope: LightScope): Light {
  const counts = barsOf(summary, category, scope);
  if (!counts) return 'unknown';
  if ((counts[4] ?? 0) > 0) return 'over';
  if ((counts[3] ?? 0) > 0) return 'near';
  return counts.some((n) => n > 0) ? 'ok' : 'unknown';
}

/** Directions of `scope` at or past the category's threshold. */
export function overThreshold(
  summary: Summary | null,
  category: CategoryName,
  scope: LightScope,
): number | null {
  const counts = barsOf(summary, category, scope);
  return counts ? (counts[4] ?? 0) : null;
}

/** Errors per second (integrity, security and routing counters summed by the API), or null. */
export function errorRate(sample: LinkDirectionState | undefined): number | null {
  return sample?.errorsPerSecond ?? null;
}

/** Error mark radius, logarithmic in the rate; a degraded link gets the smallest even with none. */
export function errorMarkRadius(sample: LinkDirectionState | undefined): number | null {
  const rate = errorRate(sample) ?? 0;
  const integrity = sample?.categories?.integrity ?? null;
  if (rate <= 0 && !(integrity !== null && integrity >= 1)) return null;
  return Math.min(9, 3 + 1.5 * Math.log10(1 + rate));
}

/** The categories of a direction at or past `atLeast` × threshold, worst first. */
export function crossedCategories(
  sample: LinkDirectionState,
  atLeast = 1,
): { category: CategoryName; value: number }[] {
  const out: { category: CategoryName; value: number }[] = [];
  for (const category of CATEGORIES) {
    const v = sample.categories?.[category];
    if (v !== null && v !== undefined && v >= atLeast) out.push({ category, value: v });
  }
  return out.sort((a, b) => b.value - a.value);
}

/** The category furthest past its threshold, or null; makes no list, as asked per ranked direction. */
export function worstCategory(sample: LinkDirectionState): { category: CategoryName; value: number } | null {
  let worst: { category: CategoryName; value: number } | null = null;
  for (const category of CATEGORIES) {
    const v = sample.categories?.[category];
    if (v !== null && v !== undefined && v >= 1 && (worst === null || v > worst.value))
      worst = { category, value: v };
  }
  return worst;
}

/** The congestion counters a tooltip names, with how it names them. */
const CONGESTION_COUNTERS = [
  ['transmitDiscards', 'discards'],
  ['congestionDiscards', 'congestion discards'],
  ['vl15Dropped', 'VL15 drops'],
] as const;

/** Tooltip lines of a direction's health; `unmeasured` names a network without PM categories. */
export function errorSummary(
  sample: LinkDirectionState | undefined,
  unmeasured: string | null = null,
): string {
  if (!sample?.errors && !sample?.categories) return '';
  const lines: string[] = [];
  const rate = errorRate(sample);
  lines.push(`errors ${rate === null ? 'unknown' : `${formatPerSecond(rate)}/s`}`);
  const congestion = CONGESTION_COUNTERS.flatMap(([field, label]) => {
    const v = sample.errors?.[field];
    return v !== null && v !== undefined && v > 0 ? [`${label} ${formatPerSecond(v)}/s`] : [];
  });
  if (congestion.length > 0) lines.push(`congestion: ${congestion.join(', ')}`);
  const lqi = sample.errors?.linkQualityIndicator;
  if (lqi !== null && lqi !== undefined) lines.push(`link quality ${lqi}/5`);
  if (unmeasured !== null) lines.push(`PM categories: not measured on ${unmeasured}`);
  else {
    const crossed = crossedCategories(sample, 0.75);
    if (crossed.length > 0)
      lines.push(crossed.map((c) => `${CATEGORY_LABELS[c.category]} ${ofThreshold(c.value)}`).join(' · '));
  }
  return lines.join('\n');
}

/** The directions past some category's threshold, worst first, at most `limit`. */
export function worstDirections(
  links: readonly LinkDirectionState[] | null,
  limit: number,
): { link: LinkDirectionState; category: CategoryName; value: number }[] {
  const out: { link: LinkDirectionState; category: CategoryName; value: number }[] = [];
  for (const link of links ?? []) {
    const worst = worstCategory(link);
    if (worst) out.push({ link, ...worst });
  }
  out.sort((a, b) => b.value - a.value || naturalCompare(a.link.id, b.link.id));
  return out.slice(0, limit);
}

/** A category's value: a percentage of the threshold up to 10 ×, a multiple beyond. */
export function ofThreshold(fraction: number): string {
  if (fraction >= 10) return `${groupDigits(Math.round(fraction))} × threshold`;
  return `${Math.round(fraction * 100)} %`;
}
