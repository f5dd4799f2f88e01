/** opatop's time keys as a pure reducer: L, r/R, f/F, B, b; forward past the newest sample is live. */

export type ScrubAction =
  | { type: 'live' }
  | { type: 'step'; ticks: number }
  | { type: 'bookmark' }
  | { type: 'recall' };

const KEYS: Record<string, ScrubAction> = {
  L: { type: 'live' },
  l: { type: 'live' },
  r: { type: 'step', ticks: -1 },
  R: { type: 'step', ticks: -5 },
  f: { type: 'step', ticks: 1 },
  F: { type: 'step', ticks: 5 },
  B: { type: 'bookmark' },
  b: { type: 'recall' },
};

/** The action a key press asks for, or null (also for presses with Ctrl, Alt or Meta). */
export function scrubActionOf(event: {
  key: string;
  ctrlKey?: boolean;
  altKey?: boolean;
  metaKey?: boolean;
}): ScrubAction | null {
  if (event.ctrlKey || event.altKey || event.metaKey) return null;
  return KEYS[event.key] ?? null;
}

export interface ScrubState {
  /** The instant shown (ms), or null for live. */
  atMs: number | null;
  bookmarkMs: number | null;
}

export interface ScrubContext {
  /** Time of the newest sample (ms): where live is, and where stepping back starts from. */
  latestMs: number | null;
  tickSeconds: number;
}

export function applyScrub(state: ScrubState, action: ScrubAction, ctx: ScrubContext): ScrubState {
  switch (action.type) {
    case 'live':
      return { ...state, atMs: null };
    case 'step': {
      const from = state.atMs ?? ctx.latestMs;
      if (from === null) return state;
      const next = from + action.ticks * ctx.tickSeconds * 1000;
      if (ctx.latestMs !== null && next >= ctx.latestMs) return { ...state, atMs: null };
      return { ...state, atMs: next };
    }
    case 'bookmark': {
      const mark = state.atMs ?? ctx.latestMs;
      return mark === null ? state : { ...state, bookmarkMs: mark };
    }
    case 'recall':
      return state.bookmarkMs === null ? state : { ...state, atMs: state.bookmarkMs };
  }
}

/** Sampling tick (s): the smallest gap between samples, as late ticks only lengthen gaps. */
export function tickFromGaps(gapsMs: readonly number[], fallback = 1): number {
  const valid = gapsMs.filter((g) => g > 0 && g <= 600_000);
  if (valid.length === 0) return fallback;
  return Math.max(0.1, Math.round(Math.min(...valid) / 100) / 10);
}

/** True when key presses belong to a text field, select or editable element, not to the page. */
export function isTypingTarget(target: { tagName?: string; isContentEditable?: boolean } | null): boolean {
  if (!target) return false;
  if (target.isContentEditable) return true;
  const tag = target.tagName?.toUpperCase();
  return tag === 'INPUT' || tag === 'TEXTAREA' || tag === 'SELECT';
}
