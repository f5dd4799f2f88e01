// How the history keeps a direction's values (6 bytes a frame, docs/history.md): the ring
// (link-history.ts) and the files on disk (history-file/) encode them alike.

export const LOAD_UNKNOWN = 0xffff;
export const LOAD_MAX = 2;
export const LOAD_SCALE = 0xfffe / LOAD_MAX;
export const WAIT_UNKNOWN = 0xff;

/**
 * A non-negative rate (packets/s) in a Uint16 on a log scale: 0 is 0, RATE_UNKNOWN is NaN, else k is 2^((k − 1) /
 * RATE_STEPS + RATE_LOG_MIN): 1/1024 to 1.8 × 10¹⁶ per second in steps of 0.068 % (error ≤ half a step, 0.034 %).
 */
export const RATE_UNKNOWN = 0xffff;
export const RATE_STEPS = 1024;
export const RATE_LOG_MIN = -10;

export function encodeRate(value: number): number {
  if (Number.isNaN(value)) return RATE_UNKNOWN;
  if (!(value > 0)) return 0;
  const code = Math.round((Math.log2(value) - RATE_LOG_MIN) * RATE_STEPS) + 1;
  return Math.min(RATE_UNKNOWN - 1, Math.max(1, code));
}

/** encodeRate's value back; NaN unknown. */
export function decodeRate(code: number): number {
  if (code === RATE_UNKNOWN) return Number.NaN;
  return code === 0 ? 0 : 2 ** ((code - 1) / RATE_STEPS + RATE_LOG_MIN);
}
export const WAIT_SCALE = 250;

/** Frames kept: `seconds` of history at one frame per `intervalMs`, within `maxBytes`. */
export function historyFrames(
  channels: number,
  intervalMs: number,
  options: { seconds?: number | undefined; maxBytes?: number | undefined } = {},
): number {
  const wanted = Math.ceil(((options.seconds ?? DEFAULT_HISTORY_SECONDS) * 1000) / intervalMs) + 1;
  const perFrame = Math.max(1, channels * BYTES_PER_DIRECTION + 8);
  const affordable = Math.floor((options.maxBytes ?? DEFAULT_HISTORY_MAX_BYTES) / perFrame);
  return Math.max(2, Math.min(wanted, affordable));
}

export const BYTES_PER_DIRECTION = 6;
export const DEFAULT_HISTORY_SECONDS = 3600;
/** Room for an hour of the biggest fabric benchmarked (docs/scaling.md). */
export const DEFAULT_HISTORY_MAX_BYTES = 512 * 1024 * 1024;
