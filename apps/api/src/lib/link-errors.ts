import type { ErrorField } from '@fabscope/contracts';
import {
  CATEGORY_NAMES,
  type CategoryValues,
  CONGESTION_COUNTERS,
  categoryBucket,
  categoryConfigFor,
  directionCategories,
  directionErrors,
  ERROR_COUNTER_GROUPS,
  errorsPerSecond,
  type LinkErrorRates,
  measuresWaitAndCategories,
  UNKNOWN_CATEGORIES,
  UNKNOWN_ERRORS,
} from '@fabscope/topology';

/**
 * Per-counter rates of one link direction (gauges as values); null when unknown, never 0 for
 * unknown. The attribution to the two ends, the error sum and the categories have one owner,
 * @fabscope/topology (analysis/link-direction.ts), which the fabric collector computes with too.
 */
export type LinkErrors = Record<ErrorField, number | null>;

/** The contract's field names and topology's are the same (checked where both meet: `true` or no build). */
export type ErrorFieldsAgree = [LinkErrors, LinkErrorRates] extends [LinkErrorRates, LinkErrors]
  ? true
  : never;
export const ERROR_FIELDS_AGREE: ErrorFieldsAgree = true;

/** Counters that are errors, by PM category (topology's ERROR_COUNTER_GROUPS). */
export const ERROR_COUNTERS = ERROR_COUNTER_GROUPS;

export {
  CONGESTION_COUNTERS,
  categoryConfigFor,
  directionCategories,
  directionErrors,
  errorsPerSecond,
  measuresWaitAndCategories,
  UNKNOWN_CATEGORIES,
  UNKNOWN_ERRORS,
};

/** Per category and link kind, opatop's five bars (0/25/50/75/100+ % of threshold), and the unknown. */
export type CategoryHistograms = Record<
  (typeof CATEGORY_NAMES)[number],
  { isl: number[]; host: number[]; unknown: number }
>;

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
