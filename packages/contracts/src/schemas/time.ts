import { type Static, Type } from '@sinclair/typebox';
import { Closed } from './common.ts';

/**
 * The grammar of times and durations as regular expressions the schemas state and the API's parser
 * uses, so a request the OpenAPI document accepts is never refused for its form.
 */
const DURATION_TERMS: readonly (readonly [unit: string, maxDigits: number])[] = [
  // Digits are bounded so that now ± any duration stays within years 0001–9999.
  ['y', 2],
  ['w', 4],
  ['d', 5],
  ['h', 6],
  ['m', 7],
  ['s', 9],
  ['ms', 11],
];
const term = ([unit, digits]: readonly [string, number]) => `[1-9]\\d{0,${digits - 1}}${unit}`;
/** Prometheus' units, each at most once, largest first, none zero: `15s`, `1h30m`, `500ms`. */
export const DURATION_GRAMMAR = `(?:${DURATION_TERMS.map((first, i) =>
  [term(first), ...DURATION_TERMS.slice(i + 1).map((t) => `(?:${term(t)})?`)].join(''),
).join('|')})`;
/** Seconds, fractions allowed, at least 0.001: `15`, `0.5`. */
export const SECONDS_GRAMMAR = '(?:[1-9]\\d{0,8}(?:\\.\\d{1,9})?|0?\\.\\d{0,2}[1-9]\\d{0,6})';
/** Unix seconds, fractions allowed, years 1653–5138. */
export const UNIX_SECONDS_GRAMMAR = '(?:-?\\d{1,10}|\\d{11})(?:\\.\\d{1,9})?';
const YEAR = '(?:000[1-9]|00[1-9]\\d|0[1-9]\\d\\d|[1-9]\\d{3})';
const LEAP_YEAR = '(?:\\d\\d(?:0[48]|[2468][048]|[13579][26])|(?:0[48]|[2468][048]|[13579][26])00)';
const MONTH_DAY =
  '(?:(?:0[1-9]|1[0-2])-(?:0[1-9]|1\\d|2[0-8])|(?:0[13-9]|1[0-2])-(?:29|30)|(?:0[13578]|1[02])-31)';
/** RFC 3339 with a calendar date (no 30 February) and seconds 00–59. */
export const RFC3339_GRAMMAR = `(?:${YEAR}-${MONTH_DAY}|${LEAP_YEAR}-02-29)[Tt ](?:[01]\\d|2[0-3]):[0-5]\\d:[0-5]\\d(?:\\.\\d{1,9})?(?:[Zz]|[+-](?:[01]\\d|2[0-3]):[0-5]\\d)`;
/** `now`, `now-5m`, `now + 1h30m`, `-5m`, as Grafana writes them (`now` in any case). */
export const RELATIVE_GRAMMAR = `(?:[Nn][Oo][Ww](?: *[+-] *${DURATION_GRAMMAR})?|-${DURATION_GRAMMAR})`;
/** A time: Unix seconds, RFC 3339 or relative. */
export const TIME_PATTERN = `^(?:${UNIX_SECONDS_GRAMMAR}|${RFC3339_GRAMMAR}|${RELATIVE_GRAMMAR})$`;
/** A step or a duration: seconds or Prometheus units. */
export const STEP_PATTERN = `^(?:${SECONDS_GRAMMAR}|${DURATION_GRAMMAR})$`;

/** A time parameter as every route takes it (apps/api/src/lib/time-params.ts parses it). */
export const TimeParam = (description: string) =>
  Type.String({
    minLength: 1,
    maxLength: 64,
    pattern: TIME_PATTERN,
    description: `${description}: Unix seconds, RFC 3339, or relative (now, now-5m, -5m)`,
  });
/** A step of a range query. */
export const StepParam = Type.String({
  minLength: 1,
  maxLength: 32,
  pattern: STEP_PATTERN,
  description:
    'Seconds or a duration (15s, 1m); default: the sampling interval, or coarser to stay within the points limit',
});

export const InstantQuery = Type.Object({ time: Type.Optional(TimeParam('The instant; absent = now')) });
export type InstantQuery = Static<typeof InstantQuery>;

export const RangeQuery = Closed({
  from: TimeParam('Start'),
  to: Type.Optional(TimeParam('End; absent = now')),
  step: Type.Optional(StepParam),
});
export type RangeQuery = Static<typeof RangeQuery>;
