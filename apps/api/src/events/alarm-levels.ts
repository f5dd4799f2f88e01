import { SEVERITY_LEVELS, type Severity } from '@fabscope/topology';

/** A level is lowered below this share of the threshold that raised it (docs/metrics.md, "Alarms"). */
export const CLEAR_BELOW_SHARE = 0.8;
/** …once the value has stayed there this long: a rate that jitters around a threshold raises one alarm, not ten. */
export const CLEAR_HOLD_MS = 10_000;

/**
 * The one hysteresis table, by level (1 warning, 2 error, 3 critical; index 0 unused): raised at `raiseAt` × the
 * category's threshold, lowered once below `clearBelow` × it for CLEAR_HOLD_MS.
 */
export const ALARM_LEVELS: readonly { severity: Severity; raiseAt: number; clearBelow: number }[] = [
  { severity: 'warning', raiseAt: 0, clearBelow: 0 },
  ...[...SEVERITY_LEVELS]
    .sort(([, a], [, b]) => a - b)
    .map(([severity, at]) => ({ severity, raiseAt: at, clearBelow: CLEAR_BELOW_SHARE * at })),
];
const TOP = ALARM_LEVELS.length - 1;

/** One direction's hysteresis state per category, as columns: level, and the hold under way (since when, its worst). */
export interface LevelColumns {
  levels: Uint8Array;
  /** Since when the known values are below the level's clear level; NaN when they are not. */
  holdSince: Float64Array;
  /** The highest level the known values since `holdSince` would keep: what the level is lowered to. */
  holdKeep: Uint8Array;
}

export function levelColumns(n: number): LevelColumns {
  return {
    levels: new Uint8Array(n),
    holdSince: new Float64Array(n).fill(Number.NaN),
    holdKeep: new Uint8Array(n),
  };
}

/**
 * Direction `c`'s level after a value at `timeMs`, its columns updated in place. Raised at once; lowered only when its
 * known values have stayed below the level's clear level for CLEAR_HOLD_MS, to the highest level any of them keeps;
 * an unknown value (NaN) changes nothing.
 */
export function stepLevel(columns: LevelColumns, c: number, value: number, timeMs: number): number {
  const { levels, holdSince, holdKeep } = columns;
  const level = levels[c] as number;
  if (Number.isNaN(value)) return level;
  let raise = 0;
  while (raise < TOP && value >= (ALARM_LEVELS[raise + 1] as (typeof ALARM_LEVELS)[number]).raiseAt) raise++;
  let keep = 0;
  while (keep < TOP && value >= (ALARM_LEVELS[keep + 1] as (typeof ALARM_LEVELS)[number]).clearBelow) keep++;
  if (raise > level || keep >= level) {
    holdSince[c] = Number.NaN;
    levels[c] = Math.max(raise, level);
    return levels[c] as number;
  }
  const since = holdSince[c] as number;
  if (Number.isNaN(since)) {
    holdSince[c] = timeMs;
    holdKeep[c] = keep;
    return level;
  }
  const lowered = Math.max(holdKeep[c] as number, keep);
  holdKeep[c] = lowered;
  if (timeMs - since < CLEAR_HOLD_MS) return level;
  levels[c] = lowered;
  // Still below the new level's clear level: its own hold starts now.
  holdSince[c] = keep < lowered ? timeMs : Number.NaN;
  holdKeep[c] = keep;
  return lowered;
}
