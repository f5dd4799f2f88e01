import type { EventRecord, EventSeverity } from '@fabscope/contracts';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fabricEvent } from '../test/testFixtures.ts';
import {
  ALWAYS_MARKED,
  chartMarks,
  EVENT_KINDS,
  type EventFilter,
  eventLabel,
  lastChangeMs,
  parseEventKinds,
  passesFilter,
  SEVERITIES,
  serializeEventKinds,
} from './events.ts';

const everything: EventFilter = { minSeverity: 'info', kinds: null };

describe('event labels', () => {
  it('labels and orders events, skipping unreadable times', () => {
    const events = [
      fabricEvent({
        time: '2026-01-01T00:00:20Z',
        kind: 'adaptive-routing',
        detail: 'enabled false → true, threshold 0 → 7',
      }),
      fabricEvent({ time: '2026-01-01T00:00:00Z', kind: 'traffic', detail: 'start pairs: 2 flows running' }),
      fabricEvent({ time: 'never', kind: 'fault', subject: 'x' }),
    ];
    const marks = chartMarks(events, everything);
    expect(marks.map((m) => m.label)).toEqual([
      'traffic start pairs: 2 flows running',
      'AR off → on, threshold 0 → 7',
    ]);
    expect(marks[1]?.x).toBe(Date.parse('2026-01-01T00:00:20Z') / 1000);
    expect(
      eventLabel(fabricEvent({ time: '', kind: 'link-state', subject: 'e1/3--c1/1', detail: 'down' })),
    ).toBe('link e1/3 ↔ c1/1 down');
    expect(
      eventLabel(
        fabricEvent({
          time: '',
          kind: 'threshold',
          subject: 'e1/3->c1/1',
          detail: 'congestion 2.00 × threshold',
        }),
      ),
    ).toBe('threshold e1/3 → c1/1 congestion 2.00 × threshold');
    // The kind is not said twice: "alarm raised", never "alarm alarm raised".
    expect(
      eventLabel(
        fabricEvent({
          time: '',
          kind: 'alarm',
          subject: 'fabric',
          detail: 'alarm raised: 2 ISL directions over the congestion threshold',
        }),
      ),
    ).toBe('alarm raised: 2 ISL directions over the congestion threshold');
  });
});

const events = fc.array(
  fc.record({
    time: fc
      .integer({ min: 0, max: 3_600_000 })
      .map((ms) => new Date(Date.parse('2026-01-01T00:00:00Z') + ms).toISOString()),
    kind: fc.constantFrom(...EVENT_KINDS),
    severity: fc.constantFrom(...SEVERITIES),
    subject: fc.constant('fabric'),
    detail: fc.string({ maxLength: 10 }),
  }),
  { maxLength: 40 },
) as fc.Arbitrary<EventRecord[]>;
const filters: fc.Arbitrary<EventFilter> = fc.record({
  minSeverity: fc.constantFrom<EventSeverity>(...SEVERITIES),
  kinds: fc.option(fc.subarray(EVENT_KINDS), { nil: null }),
});

describe('the chart marks', () => {
  it('are the events the filter lets through, and every adaptive-routing change and fault', () => {
    fc.assert(
      fc.property(events, filters, (list, filter) => {
        const marks = chartMarks(list, filter);
        const expected = list.filter((e) => ALWAYS_MARKED.has(e.kind) || passesFilter(e, filter));
        expect(marks).toHaveLength(expected.length);
        for (const m of marks)
          if (!ALWAYS_MARKED.has(m.kind))
            expect(filter.kinds === null || filter.kinds.includes(m.kind)).toBe(true);
        expect(marks.filter((m) => ALWAYS_MARKED.has(m.kind))).toHaveLength(
          list.filter((e) => ALWAYS_MARKED.has(e.kind)).length,
        );
        // Oldest first, the always-marked kinds labelled first.
        for (let i = 1; i < marks.length; i++)
          expect(marks[i]?.x).toBeGreaterThanOrEqual(marks[i - 1]?.x ?? 0);
        for (const m of marks)
          if (ALWAYS_MARKED.has(m.kind)) expect(m.priority).toBeGreaterThan(SEVERITIES.length - 1);
      }),
    );
  });

  it('follow the severity floor and the kinds chosen', () => {
    const list = [
      fabricEvent({ time: '2026-01-01T00:00:01Z', kind: 'threshold', severity: 'warning' }),
      fabricEvent({ time: '2026-01-01T00:00:02Z', kind: 'traffic', severity: 'info' }),
      fabricEvent({ time: '2026-01-01T00:00:03Z', kind: 'adaptive-routing', severity: 'info' }),
      fabricEvent({ time: '2026-01-01T00:00:04Z', kind: 'fault', severity: 'info' }),
      fabricEvent({ time: '2026-01-01T00:00:05Z', kind: 'link-state', severity: 'error' }),
    ];
    const kinds = (f: EventFilter) => chartMarks(list, f).map((m) => m.kind);
    expect(kinds({ minSeverity: 'warning', kinds: null })).toEqual([
      'threshold',
      'adaptive-routing',
      'fault',
      'link-state',
    ]);
    expect(kinds({ minSeverity: 'info', kinds: ['traffic'] })).toEqual([
      'traffic',
      'adaptive-routing',
      'fault',
    ]);
    expect(kinds({ minSeverity: 'critical', kinds: [] })).toEqual(['adaptive-routing', 'fault']);
  });
});

describe('the kinds in the URL', () => {
  it('round-trip, every kind as no parameter, none as "none", unknown kinds dropped', () => {
    fc.assert(
      fc.property(fc.option(fc.subarray(EVENT_KINDS), { nil: null }), (kinds) => {
        const parsed = parseEventKinds(serializeEventKinds(kinds));
        const expected = kinds === null || kinds.length === EVENT_KINDS.length ? null : kinds;
        expect(parsed === null ? null : [...parsed].sort()).toEqual(
          expected === null ? null : [...expected].sort(),
        );
      }),
    );
    expect(parseEventKinds('threshold,bogus')).toEqual(['threshold']);
    expect(parseEventKinds('bogus')).toBeNull();
    expect(parseEventKinds('none')).toEqual([]);
  });
});

describe('the last change of a kind', () => {
  it('is the newest readable time of that kind, null without one', () => {
    const list = [
      fabricEvent({ time: '2026-01-01T00:00:05Z', kind: 'adaptive-routing' }),
      fabricEvent({ time: '2026-01-01T00:00:09Z', kind: 'traffic' }),
      fabricEvent({ time: '2026-01-01T00:00:07Z', kind: 'adaptive-routing' }),
      fabricEvent({ time: 'never', kind: 'adaptive-routing' }),
    ];
    expect(lastChangeMs(list, 'adaptive-routing')).toBe(Date.parse('2026-01-01T00:00:07Z'));
    expect(lastChangeMs(list, 'fault')).toBeNull();
  });
});
