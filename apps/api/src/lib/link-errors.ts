import type { Summary } from '@fabscope/contracts';
import {
  CONGESTION_COUNTERS,
  categoryConfigFor,
  directionCategories,
  directionErrors,
  ERROR_COUNTER_GROUPS,
  errorsPerSecond,
  type LinkErrorRates,
  measuresPmCategories,
  UNKNOWN_CATEGORIES,
  UNKNOWN_ERRORS,
} from '@fabscope/topology';

/** Per-counter rates of one link direction (gauges as values); null when unknown, never 0. */
export type LinkErrors = LinkErrorRates;

/** Counters that are errors, by PM category (topology's ERROR_COUNTER_GROUPS). */
export const ERROR_COUNTERS = ERROR_COUNTER_GROUPS;

export {
  CONGESTION_COUNTERS,
  categoryConfigFor,
  directionCategories,
  directionErrors,
  errorsPerSecond,
  measuresPmCategories,
  UNKNOWN_CATEGORIES,
  UNKNOWN_ERRORS,
};

/** Per category and link kind, opatop's five bars (0/25/50/75/100+ % of threshold), and the unknown. */
export type CategoryHistograms = NonNullable<Summary['categories']>;
