import { STEP_PATTERN, TIME_PATTERN } from '@fabscope/contracts';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  MAX_POINTS_PER_SERIES,
  parseDuration,
  parseRange,
  parseTime,
  rangePoints,
  TimeParamError,
} from '../src/lib/time-params.ts';

// Date.UTC would read year 1 as 1901.
const MIN_MS = Date.parse('0001-01-01T00:00:00Z');
const MAX_MS = Date.UTC(9999, 11, 31, 23, 59, 59, 999);

/** Either a value or a TimeParamError: never another exception, never a non-integer. */
function outcome(f: () => number): number | TimeParamError {
  try {
    return f();
  } catch (error) {
    if (error instanceof TimeParamError) return error;
    throw error;
  }
}

describe('times as Prometheus takes them', () => {
  it('reads Unix seconds with fractions, to the millisecond', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 4_102_444_800_000 }), (ms) => {
        expect(parseTime('time', (ms / 1000).toFixed(3))).toBe(ms);
      }),
    );
    expect(parseTime('time', '1700000000')).toBe(1_700_000_000_000);
    expect(parseTime('time', '1700000000.5')).toBe(1_700_000_000_500);
  });

  it('reads RFC 3339 in UTC and with offsets', () => {
    fc.assert(
      fc.property(fc.date({ min: new Date(0), max: new Date(MAX_MS), noInvalidDate: true }), (date) => {
        expect(parseTime('time', date.toISOString())).toBe(date.getTime());
      }),
    );
    expect(parseTime('time', '2026-11-22T11:02:15+01:00')).toBe(Date.UTC(2026, 10, 22, 10, 2, 15));
  });

  it('refuses anything else with a reason that names the parameter', () => {
    for (const bad of [
      '',
      'now-',
      'abc',
      '2026-02-30T00:00:00Z',
      '2026-11-22',
      '2026-13-01T00:00:00Z',
      '1e300',
      'NaN',
      'Infinity',
    ]) {
      const result = outcome(() => parseTime('from', bad));
      expect(result, bad).toBeInstanceOf(TimeParamError);
      expect((result as Error).message, bad).toMatch(/^from /);
    }
  });

  it('on any input, answers an integer in range or a TimeParamError', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          fc.double().map(String),
          fc.date().map((d) => String(d)),
        ),
        (text) => {
          const result = outcome(() => parseTime('time', text));
          if (typeof result === 'number') {
            expect(Number.isInteger(result)).toBe(true);
            expect(result).toBeGreaterThanOrEqual(MIN_MS);
            expect(result).toBeLessThanOrEqual(MAX_MS);
          }
        },
      ),
    );
  });
});

describe('steps and durations', () => {
  it('adds up Prometheus duration units', () => {
    const units = {
      y: 31_536_000_000,
      w: 604_800_000,
      d: 86_400_000,
      h: 3_600_000,
      m: 60_000,
      s: 1000,
      ms: 1,
    };
    fc.assert(
      fc.property(
        fc.record({
          y: fc.nat(3),
          w: fc.nat(60),
          d: fc.nat(400),
          h: fc.nat(100),
          m: fc.nat(100),
          s: fc.nat(100),
          ms: fc.nat(1000),
        }),
        (parts) => {
          const text = (Object.keys(units) as (keyof typeof units)[])
            .filter((u) => parts[u] > 0)
            .map((u) => `${parts[u]}${u}`)
            .join('');
          const expected = (Object.keys(units) as (keyof typeof units)[]).reduce(
            (sum, u) => sum + parts[u] * units[u],
            0,
          );
          const result = outcome(() => parseDuration('step', text));
          if (expected >= 1) expect(result).toBe(expected);
          else expect(result).toBeInstanceOf(TimeParamError);
        },
      ),
    );
    expect(parseDuration('step', '15')).toBe(15_000);
    expect(parseDuration('step', '0.5')).toBe(500);
    expect(parseDuration('step', '1m30s')).toBe(90_000);
  });

  it('refuses zero, negatives, units out of order and garbage', () => {
    for (const bad of ['0', '-1', '0s', '', 's', '1s1m', '1x', '1.5m', 'P1D', '0.0001']) {
      expect(
        outcome(() => parseDuration('step', bad)),
        bad,
      ).toBeInstanceOf(TimeParamError);
    }
  });

  it('on any input, answers an integer ≥ 1 ms or a TimeParamError', () => {
    fc.assert(
      fc.property(fc.string(), (text) => {
        const result = outcome(() => parseDuration('step', text));
        if (typeof result === 'number') {
          expect(Number.isInteger(result)).toBe(true);
          expect(result).toBeGreaterThanOrEqual(1);
        }
      }),
    );
  });
});

describe('ranges', () => {
  it('never answers more points than the limit, and refuses to before from', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 2_000_000_000 }),
        fc.integer({ min: -100_000, max: 100_000_000 }),
        fc.integer({ min: 1, max: 100_000 }),
        (from, length, step) => {
          const query = { from: String(from), to: String(from + length), step: `${step}ms` };
          const result = outcome(() => rangePoints(parseRange(query, { nowMs: 0, defaultStepMs: 1000 })));
          if (length < 0) expect(result).toBeInstanceOf(TimeParamError);
          else if (typeof result === 'number') expect(result).toBeLessThanOrEqual(MAX_POINTS_PER_SERIES);
          else expect((result as Error).message).toMatch(/exceed the limit of 11000/);
        },
      ),
    );
  });

  it('chooses a step within the limit when none is given', () => {
    const range = parseRange({ from: '0', to: '86400' }, { nowMs: 0, defaultStepMs: 1000 });
    expect(rangePoints(range)).toBeLessThanOrEqual(MAX_POINTS_PER_SERIES);
    expect(parseRange({ from: '0', to: '60' }, { nowMs: 0, defaultStepMs: 1000 }).stepMs).toBe(1000);
  });
});

describe('times relative to now, as Grafana writes them', () => {
  const nowMs = Date.UTC(2026, 10, 25, 12, 0, 0);

  it('now, now-5m, now+1h30m, -5m and NOW - 2h', () => {
    expect(parseTime('from', 'now', nowMs)).toBe(nowMs);
    expect(parseTime('from', 'now-5m', nowMs)).toBe(nowMs - 300_000);
    expect(parseTime('from', '-5m', nowMs)).toBe(nowMs - 300_000);
    expect(parseTime('to', 'now+1h30m', nowMs)).toBe(nowMs + 5_400_000);
    expect(parseTime('from', 'NOW - 2h', nowMs)).toBe(nowMs - 7_200_000);
    expect(parseTime('from', 'now-500ms', nowMs)).toBe(nowMs - 500);
  });

  it('any duration a step takes, subtracted: the same as now minus parseDuration', () => {
    fc.assert(
      fc.property(
        fc.record({ h: fc.nat(48), m: fc.nat(59), s: fc.nat(59) }).filter((d) => d.h + d.m + d.s > 0),
        ({ h, m, s }) => {
          const text = `${h ? `${h}h` : ''}${m ? `${m}m` : ''}${s ? `${s}s` : ''}`;
          expect(parseTime('from', `now-${text}`, nowMs)).toBe(nowMs - parseDuration('step', text));
          expect(parseTime('from', `-${text}`, nowMs)).toBe(nowMs - parseDuration('step', text));
        },
      ),
    );
  });

  it('refuses what is not a duration, naming it; a negative number stays Unix seconds', () => {
    expect(() => parseTime('from', 'now-5x', nowMs)).toThrow('from "now-5x": "5x" is not a duration');
    expect(() => parseTime('from', 'now-', nowMs)).toThrow(/neither Unix seconds.*nor relative/);
    expect(() => parseTime('from', 'yesterday', nowMs)).toThrow(/nor relative \(now, now-5m, -5m\)/);
    expect(parseTime('from', '-5', nowMs)).toBe(-5000);
  });

  it('a range of the last 5 minutes', () => {
    const range = parseRange({ from: 'now-5m' }, { nowMs, defaultStepMs: 1000 });
    expect(range).toMatchObject({ fromMs: nowMs - 300_000, toMs: nowMs, stepMs: 1000 });
  });
});

describe('the contract states the grammar the parser reads', () => {
  const nowMs = Date.UTC(2026, 10, 26, 12, 0, 0);
  const time = new RegExp(TIME_PATTERN);
  const step = new RegExp(STEP_PATTERN);
  // Strings near the grammar as well as any string: pieces of times and durations shuffled.
  const near = fc
    .array(
      fc.constantFrom(
        'now',
        '-',
        '+',
        ' ',
        '5',
        '0',
        '1',
        '9',
        'm',
        's',
        'ms',
        'h',
        'd',
        'w',
        'y',
        '.',
        ':',
        'T',
        'Z',
        '2026-',
        '02-29',
        '02-30',
        '12-31',
        'T23:59:59',
        '+01:00',
        '9999',
        '0001',
      ),
      { maxLength: 8 },
    )
    .map((parts) => parts.join(''));

  it('parseTime accepts exactly what TIME_PATTERN (the schemas) accepts, and every such time is in range', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), near, fc.stringMatching(time)), (text) => {
        const result = outcome(() => parseTime('time', text, nowMs));
        expect(typeof result === 'number', text).toBe(time.test(text));
      }),
      { numRuns: 2000 },
    );
  });

  it('parseDuration accepts exactly what STEP_PATTERN accepts, every step at least 1 ms', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), near, fc.stringMatching(step)), (text) => {
        const result = outcome(() => parseDuration('step', text));
        expect(typeof result === 'number', text).toBe(step.test(text));
        if (typeof result === 'number') expect(result).toBeGreaterThanOrEqual(1);
      }),
      { numRuns: 2000 },
    );
  });
});
