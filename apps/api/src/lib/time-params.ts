import {
  DURATION_GRAMMAR,
  RELATIVE_GRAMMAR,
  RFC3339_GRAMMAR,
  STEP_PATTERN,
  TIME_PATTERN,
  UNIX_SECONDS_GRAMMAR,
} from '@fabscope/contracts';

/**
 * Times and steps as the Prometheus HTTP API takes them: a time is Unix seconds, RFC 3339 or
 * relative to now as Grafana writes it (`now-5m`, `-5m`); a step is seconds or a Prometheus duration.
 */

/** The most points one answer carries (Prometheus refuses more than 11,000 per series too). */
export const MAX_POINTS_PER_SERIES = 11_000;

/** A bad time, step or range: the API answers 400 with the message. */
export class TimeParamError extends Error {
  override name = 'TimeParamError';
  readonly statusCode = 400;
}

const UNIX_SECONDS = new RegExp(`^${UNIX_SECONDS_GRAMMAR}$`);
const RFC3339 = new RegExp(`^${RFC3339_GRAMMAR}$`);
const RELATIVE = new RegExp(`^${RELATIVE_GRAMMAR}$`);
const TIME = new RegExp(TIME_PATTERN);
const DURATION = new RegExp(`^${DURATION_GRAMMAR}$`);
const STEP = new RegExp(STEP_PATTERN);
/** One term of a duration that matched DURATION: `ms` before `m`, so `5ms` is not five minutes. */
const DURATION_TERM = /(\d+)(ms|[ywdhms])/g;
const UNIT_MS: Record<string, number> = {
  y: 365 * 86_400_000,
  w: 7 * 86_400_000,
  d: 86_400_000,
  h: 3_600_000,
  m: 60_000,
  s: 1000,
  ms: 1,
};
/** Year 0001 to 9999, as RFC 3339 can write them: beyond, a number is a mistake (ms for s). */
// Date.UTC would read year 1 as 1901.
const MIN_MS = Date.parse('0001-01-01T00:00:00Z');
const MAX_MS = Date.UTC(9999, 11, 31, 23, 59, 59, 999);

/** Milliseconds of a duration in the grammar's form (`1h30m`); throws on anything else. */
export function durationMs(text: string): number {
  if (!DURATION.test(text)) throw new Error(`not a PromQL duration: "${text}"`);
  return termsMs(text);
}

/** The sum of the duration terms in `text` (`now-1h30m` → 1h30m). */
function termsMs(text: string): number {
  let ms = 0;
  for (const [, digits, unit] of text.matchAll(DURATION_TERM))
    ms += Number(digits) * (UNIT_MS[unit as string] as number);
  return ms;
}

/**
 * `name`'s value as Unix milliseconds: Unix seconds, RFC 3339, or relative to `nowMs` — `now`, `now-5m`, `now+1h`,
 * `-5m` (a duration as steps take it).
 */
export function parseTime(name: string, value: string, nowMs: number = Date.now()): number {
  if (value === '')
    throw new TimeParamError(`${name} is empty: give Unix seconds, an RFC 3339 time, or now-5m`);
  if (!TIME.test(value)) {
    const relative = /^(?:now *[+-] *|-)(.+)$/i.exec(value);
    if (relative && !UNIX_SECONDS.test(value) && !DURATION.test(relative[1] as string))
      throw new TimeParamError(`${name} "${value}": "${relative[1]}" is not a duration (5m, 1h30m, 500ms)`);
    throw new TimeParamError(
      `${name} "${value}" is neither Unix seconds (1700000000.5), RFC 3339 (2026-11-22T10:02:15Z) nor relative (now, now-5m, -5m)`,
    );
  }
  let ms: number;
  if (UNIX_SECONDS.test(value)) ms = Number(value) * 1000;
  else if (RFC3339.test(value))
    // Date.parse takes RFC 3339's alternatives (`t`, a space, `z`) in ISO's upper case only.
    ms = Date.parse(value.replace(/^(.{10})[t ]/, '$1T').replace(/z$/, 'Z'));
  else {
    const offsetMs = termsMs(value);
    ms = RELATIVE.test(value) && /^now *\+/i.test(value) ? nowMs + offsetMs : nowMs - offsetMs;
  }
  // The grammar keeps Unix seconds and offsets from today within range; a `nowMs` far from today
  // (a caller's own clock) could still step out of it.
  if (!Number.isFinite(ms) || ms < MIN_MS - 86_400_000 || ms > MAX_MS + 86_400_000) {
    throw new TimeParamError(`${name} "${value}" is out of range (years 0001–9999)`);
  }
  // Whole milliseconds: the resolution of every store.
  return Math.round(ms);
}

/** `name`'s value (a step or a duration) in milliseconds, ≥ 1: exactly what `STEP_PATTERN` of the contract accepts. */
export function parseDuration(name: string, value: string): number {
  if (!STEP.test(value)) {
    throw new TimeParamError(
      `${name} "${value}" is neither seconds of at least 0.001 (15, 0.5) nor a duration (15s, 1m30s, 500ms)`,
    );
  }
  const ms = DURATION.test(value) ? termsMs(value) : Number(value) * 1000;
  // Whole milliseconds: the resolution of every store.
  return Math.max(1, Math.round(ms));
}

export interface TimeRange {
  fromMs: number;
  toMs: number;
  stepMs: number;
}

/** Points of a range: from, from + step, … up to and including to. */
export function rangePoints(range: TimeRange): number {
  return Math.floor((range.toMs - range.fromMs) / range.stepMs) + 1;
}

/** Checks from ≤ to and the number of points; `step` defaults to one of `defaultStepMs`. */
export function parseRange(
  query: { from?: string | undefined; to?: string | undefined; step?: string | undefined },
  options: { nowMs: number; defaultStepMs: number; maxPoints?: number },
): TimeRange {
  if (query.from === undefined)
    throw new TimeParamError('from is required (Unix seconds, RFC 3339, or relative: now-5m)');
  const fromMs = parseTime('from', query.from, options.nowMs);
  const toMs = query.to === undefined ? options.nowMs : parseTime('to', query.to, options.nowMs);
  if (toMs < fromMs) throw new TimeParamError('to is before from');
  const stepMs =
    query.step === undefined
      ? Math.max(options.defaultStepMs, Math.ceil((toMs - fromMs) / (MAX_POINTS_PER_SERIES - 1)))
      : parseDuration('step', query.step);
  const range = { fromMs, toMs, stepMs };
  const max = options.maxPoints ?? MAX_POINTS_PER_SERIES;
  const points = rangePoints(range);
  if (points > max) {
    throw new TimeParamError(
      `${points} points per series exceed the limit of ${max}: choose a larger step or a shorter range`,
    );
  }
  return range;
}

/** The instants of a range, in ms. */
export function rangeTimes(range: TimeRange): number[] {
  const n = rangePoints(range);
  const times = new Array<number>(n);
  for (let i = 0; i < n; i++) times[i] = range.fromMs + i * range.stepMs;
  return times;
}
