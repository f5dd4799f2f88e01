import type { Features, HistoryPoint } from './api-types.ts';
import { LINK_FILTERS, NO_HISTORY, SORT_CRITERIA, type ViewState } from './state.ts';

/** What node:readline's emitKeypressEvents reports for one key. */
export interface Keypress {
  name?: string | undefined;
  sequence?: string | undefined;
  ctrl?: boolean | undefined;
  shift?: boolean | undefined;
}

export interface KeyContext {
  features: Features | null;
  history: HistoryPoint[] | null;
  /** Time of the tick on screen (the live one while live). */
  shownTime: string | null;
  /** Ranked rows on one screen: what s/S scroll by. */
  pageRows: number;
  /** Ranked rows the server has beyond those fetched (false: the list ends on screen). */
  moreLinks: boolean;
}

export interface KeyResult {
  state: ViewState;
  quit: boolean;
  /** The answer on screen no longer matches the state: fetch again now. */
  refetch: boolean;
}

/** The character typed, case kept (opatop's keys are case sensitive where marked *). */
function character(key: Keypress): string {
  if (key.sequence && [...key.sequence].length === 1) return key.sequence;
  return key.name ?? '';
}

const cycle = <T>(list: readonly T[], current: T, step: number): T => {
  const index = list.indexOf(current);
  return list[(index + step + list.length) % list.length] as T;
};

/** Ticks the server keeps, oldest first. */
function historyTimes(history: HistoryPoint[] | null): string[] {
  return (history ?? []).map((p) => p.time).sort((a, b) => Date.parse(a) - Date.parse(b));
}

/** Moves `steps` ticks through the history; past the newest the view goes live again. */
function step(state: ViewState, context: KeyContext, steps: number): ViewState {
  const times = historyTimes(context.history);
  if (times.length === 0) return { ...state, message: 'the server has no ticks in its history yet' };
  const current = state.time ?? context.shownTime ?? (times.at(-1) as string);
  const at = Date.parse(current);
  let index = times.length - 1;
  while (index > 0 && Date.parse(times[index] as string) > at) index--;
  const next = index + steps;
  if (next >= times.length - 1 && steps > 0) return { ...state, time: null, message: null };
  const clamped = Math.max(0, Math.min(times.length - 1, next));
  return { ...state, time: times[clamped] as string, message: null };
}

/** Ticks r/R go back and f/F forward. */
const HISTORY_STEPS: Record<string, number> = { r: -1, R: -5, f: 1, F: 5 };

/** opatop's keys (opa-ff IbaTools/opatop help screens), acting at once rather than on Enter. */
export function applyKey(state: ViewState, key: Keypress, context: KeyContext): KeyResult {
  const done = (next: ViewState, refetch = false): KeyResult => ({ state: next, quit: false, refetch });
  if (key.ctrl && key.name === 'c') return { state, quit: true, refetch: false };
  const typed = character(key);
  const cleared = { ...state, message: null };
  switch (typed) {
    case 'q':
    case 'Q':
      return { state, quit: true, refetch: false };
    case '?':
    case 'h':
    case 'H':
      return done({ ...cleared, showHelp: !state.showHelp });
    case 'u':
      return done({ ...cleared, showHelp: false, showErrors: false });
    case 'e':
    case 'E':
      // opatop's error-category screen: each category's directions per share of its threshold.
      return done({ ...cleared, showErrors: !state.showErrors, showHelp: false });
    case 'g':
      // Rates in bits (Gb/s, as link rates and iperf) or bytes (GB/s, as opatop); no refetch.
      return done({ ...cleared, rateUnit: state.rateUnit === 'bytes' ? 'bits' : 'bytes' });
    case 'c':
    case 'C': {
      const keys = SORT_CRITERIA.map((c) => c.key);
      return done({ ...cleared, sort: cycle(keys, state.sort, typed === 'c' ? 1 : -1), scroll: 0 }, true);
    }
    case '0':
    case '1':
    case '2': {
      const filter = (LINK_FILTERS[Number(typed)] as (typeof LINK_FILTERS)[number]).key;
      return done({ ...cleared, filter, scroll: 0 }, true);
    }
    case 's':
      if (!context.moreLinks) return done({ ...cleared, message: 'end of the list' });
      return done({ ...cleared, scroll: state.scroll + context.pageRows }, true);
    case 'S':
      return done({ ...cleared, scroll: Math.max(0, state.scroll - context.pageRows) }, true);
  }
  const historyKeys = 'LlrRfFBbU';
  if (!historyKeys.includes(typed) || typed === '') return done(state);
  if (!context.features)
    return done({ ...state, message: 'still asking the server whether it keeps history' });
  if (!context.features.history) return done({ ...state, message: NO_HISTORY });
  switch (typed) {
    case 'L':
    case 'l':
      return done({ ...cleared, time: null }, true);
    case 'r':
    case 'R':
    case 'f':
    case 'F':
      return done(step(state, context, HISTORY_STEPS[typed] as number), true);
    case 'B': {
      const time = state.time ?? context.shownTime;
      if (!time) return done({ ...state, message: 'nothing on screen to bookmark yet' });
      // A bookmark freezes the tick, as in opatop.
      return done({ ...cleared, bookmark: time, time }, true);
    }
    case 'b':
      if (!state.bookmark) return done({ ...state, message: 'no bookmark (B sets one)' });
      return done({ ...cleared, time: state.bookmark }, true);
    default:
      return done({ ...cleared, bookmark: null });
  }
}
