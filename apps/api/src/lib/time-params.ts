/**
 * Times and steps as the Prometheus HTTP API takes them: a time is Unix seconds (fractions
 * allowed) or RFC 3339, or relative to now as Grafana writes it (`now`, `now-5m`, `-5m`); a step or duration is seconds (fractions allowed) or a Prometheus
 * duration such as `15s`, `1m30s`, `500ms`. Anything else is refused with the reason.
 */

/** The most points one answer carries (Prometheus refuses more than 11,000 per series too). */
export const MAX_POINTS_PER_SERIES = 11_000;

/** A bad time, step or range: the API answers 400 with the message. */
export class TimeParamError extends Error {
  override name = 'TimeParamError';
  readonly statusCode = 400;
}

const UNIX_SECONDS = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;
const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|[+-](\d{2}):(\d{2}))$/;
const DURATION = /^(?:(\d+)y)?(?:(\d+)w)?(?:(\d+)d)?(?:(\d+)h)?(?:(\d+)m(?!s))?(?:(\d+)s)?(?:(\d+)ms)?$/;
const DURATION_UNITS_MS = [365 * 86_400_000, 7 * 86_400_000, 86_400_000, 3_600_000, 60_000, 1000, 1];
/** Year 0001 to 9999, as RFC 3339 can write them: beyond, a number is a mistake (ms for s). */
const MIN_MS = Date.UTC(1, 0, 1);
const MAX_MS = Date.UTC(9999, 11, 31, 23, 59, 59, 999);

/** `now`, `now-5m`, `now+1h30m`, `-5m` (Grafana's and Prometheus' relative times). */
const RELATIVE = /^(?:now\s*(?:([+-])\s*(\S+))?|-(\S+))$/i;

/**
 * `name`'s value as Unix milliseconds: Unix seconds, RFC 3339, or relative to `nowMs` — `now`,
 * `now-5m`, `now+1h`, `-5m` (a duration as steps take it).
 */
export function parseTime(name: string, value: string, nowMs: number = Date.now()): number {
  const text = value.trim();
  if (text === '')
    throw new TimeParamError(`${name} is empty: give Unix seconds, an RFC 3339 time, or now-5m`);
  let ms: number;
  const relative = UNIX_SECONDS.test(text) ? null : RELATIVE.exec(text);
  if (relative) {
    const [, sign, after, before] = relative;
    const duration = after ?? before;
    let offsetMs = 0;
    if (duration !== undefined) {
      const m = DURATION.exec(duration);
      if (!m || duration === '')
        throw new TimeParamError(`${name} "${value}": "${duration}" is not a duration (5m, 1h30m, 500ms)`);
      offsetMs = DURATION_UNITS_MS.reduce((sum, unit, i) => sum + Number(m[i + 1] ?? 0) * unit, 0);
    }
    ms = sign === '+' ? nowMs + offsetMs : nowMs - offsetMs;
  } else if (UNIX_SECONDS.test(text)) {
    ms = Number(text) * 1000;
  } else {
    const m = RFC3339.exec(text);
    if (!m) {
      throw new TimeParamError(
        `${name} "${value}" is neither Unix seconds (1700000000.5), RFC 3339 (2026-11-22T10:02:15Z) nor relative (now, now-5m, -5m)`,
      );
    }
    const [month, day, hour, minute, second] = [m[2], m[3], m[4], m[5], m[6]].map(Number) as number[];
    if (
      (month as number) < 1 ||
      (month as number) > 12 ||
      (day as number) < 1 ||
      (day as number) > 31 ||
      (hour as number) > 23 ||
      (minute as number) > 59 ||
      (second as number) > 60 ||
      (m[9] !== undefined && (Number(m[9]) > 23 || Number(m[10]) > 59))
    ) {
      throw new TimeParamError(`${name} "${value}" has a field out of range`);
    }
    ms = Date.parse(text.replace(' ', 'T'));
    // Date.parse rolls 31 February over to March: a date that does not exist is refused.
    const date = new Date(Date.UTC(Number(m[1]), (month as number) - 1, day));
    if (date.getUTCDate() !== day) throw new TimeParamError(`${name} "${value}" is not a calendar date`);
  }
  if (!Number.isFinite(ms) || ms < MIN_MS || ms > MAX_MS) {
    throw new TimeParamError(`${name} "${value}" is out of range (years 0001–9999)`);
  }
  // Whole milliseconds: the resolution of every store.
  return Math.round(ms);
}

/** `name`'s value (a step or a duration) in milliseconds, > 0. */
export function parseDuration(name: string, value: string): number {
  const text = value.trim();
  let ms: number;
  if (UNIX_SECONDS.test(text)) {
    ms = Number(text) * 1000;
  } else {
    const m = text === '' ? null : DURATION.exec(text);
    if (!m) {
      throw new TimeParamError(
        `${name} "${value}" is neither seconds (15, 0.5) nor a duration (15s, 1m, 500ms)`,
      );
    }
    ms = DURATION_UNITS_MS.reduce((sum, unit, i) => sum + Number(m[i + 1] ?? 0) * unit, 0);
  }
  if (!Number.isFinite(ms) || !(ms >= 1)) throw new TimeParamError(`${name} "${value}" must be at least 1ms`);
  // Whole milliseconds: the resolution of every store.
  return Math.round(ms);
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
