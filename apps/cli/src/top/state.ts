import type { RateUnit } from '@fabscope/contracts/units';
/** opatop's focus criteria that the API can answer, in the order `c` steps through them. */
export const SORT_CRITERIA = [
  { key: 'utilization', label: 'Utilization (highest first)' },
  { key: 'packets', label: 'Packets (highest first)' },
  { key: 'utilizationLowest', label: 'Utilization (lowest first)' },
  { key: 'wait', label: 'Congestion: XmitWait (highest first)' },
  { key: 'integrity', label: 'Errors: Integrity (worst first)' },
] as const;
export type SortKey = (typeof SORT_CRITERIA)[number]['key'];

/** opatop's port groups as fabscope's link kinds: 0 all, 1 ISLs (switch ports), 2 host links. */
export const LINK_FILTERS = [
  { key: 'all', label: 'all links' },
  { key: 'isl', label: 'ISLs' },
  { key: 'host', label: 'host links' },
] as const;
export type LinkFilter = (typeof LINK_FILTERS)[number]['key'];

export interface ViewState {
  sort: SortKey;
  filter: LinkFilter;
  /** Index of the first ranked row on screen. */
  scroll: number;
  /** The tick shown: null while live, else a time the server keeps in its history. */
  time: string | null;
  bookmark: string | null;
  showHelp: boolean;
  /** The error-category screen (e) in place of the ranked table. */
  showErrors: boolean;
  /** One line for the user about the last key (e.g. "no history on this server"). */
  message: string | null;
  /** Rates in bytes (GB/s, as opatop) or bits (Gb/s, as link rates) per second: `g` switches. */
  rateUnit: RateUnit;
}

export const initialViewState: ViewState = {
  sort: 'utilization',
  filter: 'all',
  scroll: 0,
  time: null,
  bookmark: null,
  showHelp: false,
  showErrors: false,
  message: null,
  rateUnit: 'bytes',
};

/** opatop's image type on the first line: Live, Hist (navigated) or Bkmk (the bookmarked tick). */
export function modeOf(state: Pick<ViewState, 'time' | 'bookmark'>): 'Live' | 'Hist' | 'Bkmk' {
  if (state.time === null) return 'Live';
  return state.time === state.bookmark ? 'Bkmk' : 'Hist';
}

export const NO_HISTORY = 'no history on this server';
