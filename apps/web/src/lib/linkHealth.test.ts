import type { CategoryName, EventRecord, LinkDirectionState, Summary } from '@fabscope/contracts';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fabricEvent, linkState, summaryOf } from '../test/testFixtures.ts';
import { eventsAtLeast, parseSeverity } from './events.ts';
import {
  CONGESTED_WAIT,
  categoryLight,
  crossedCategories,
  errorMarkRadius,
  errorRate,
  errorSummary,
  isCongested,
  ofThreshold,
  overThreshold,
  worstDirections,
} from './linkHealth.ts';

const summary = (isl: number[], host: number[], unknown = 0): Summary =>
  summaryOf({ hostTransmitBytesPerSecond: null, categories: { integrity: { isl, host, unknown } } });

/** A direction with `errorsPerSecond` errors/s (the API's sum of its error counters). */
function link(
  errorsPerSecond: number | null,
  categories: Partial<Record<CategoryName, number | null>> = {},
): LinkDirectionState {
  return linkState('core2/1->edge1/4', {
    linkId: 'edge1/4--core2/1',
    packetsPerSecond: 0,
    transmitWaitFraction: 0,
    errorsPerSecond,
    categories,
  });
}

describe('category lights', () => {
  it('red past the threshold, amber from 75 %, green below, grey unknown; per port group', () => {
    const s = summary([3, 0, 0, 0, 2], [4, 0, 0, 1, 0]);
    expect(categoryLight(s, 'integrity', 'isl')).toBe('over');
    expect(categoryLight(s, 'integrity', 'host')).toBe('near');
    expect(categoryLight(s, 'integrity', 'all')).toBe('over');
    expect(categoryLight(summary([5, 0, 0, 0, 0], [0, 0, 0, 0, 0]), 'integrity', 'host')).toBe('unknown');
    expect(categoryLight(summary([5, 0, 0, 0, 0], [0, 0, 0, 0, 0]), 'integrity', 'isl')).toBe('ok');
    expect(categoryLight(s, 'security', 'all')).toBe('unknown');
    expect(categoryLight(null, 'integrity', 'all')).toBe('unknown');
    expect(overThreshold(s, 'integrity', 'all')).toBe(2);
  });
});

describe('error marks', () => {
  it('read the API’s error rate; none known is unknown, not 0', () => {
    expect(errorRate(link(1003))).toBe(1003);
    expect(errorRate(link(null))).toBeNull();
    expect(errorRate(undefined)).toBeNull();
  });

  it('no mark without errors; grows with the log of the rate, bounded', () => {
    expect(errorMarkRadius(link(0))).toBeNull();
    const one = errorMarkRadius(link(1)) as number;
    const thousand = errorMarkRadius(link(1000)) as number;
    expect(thousand).toBeGreaterThan(one);
    expect(errorMarkRadius(link(1e12))).toBe(9);
    // A degraded link (LQI) past the integrity threshold is marked even with no errors counted.
    expect(errorMarkRadius(link(0, { integrity: 1.2 }))).toBe(3);
  });

  it('lists the categories past a share of the threshold, worst first', () => {
    expect(crossedCategories(link(null, { integrity: 1.2, security: 3, routing: 0.5 }))).toEqual([
      { category: 'security', value: 3 },
      { category: 'integrity', value: 1.2 },
    ]);
  });
});

describe('tooltips: errors are errors, congestion is congestion', () => {
  it('a congested port (XmitDiscards, XmitWait) has no errors: its discards are listed as congestion', () => {
    // Seed 002's shared up-port: 2 discards/s, 80 % waiting, nothing wrong with the link.
    const congested = linkState('edge1/4->core2/1', {
      errorsPerSecond: 0,
      transmitWaitFraction: 0.8,
      errors: { transmitDiscards: 1.998, receiveErrors: 0, linkQualityIndicator: 5 },
      categories: { integrity: 0, congestion: 8 },
    });
    const text = errorSummary(congested);
    expect(text.split('\n')).toEqual([
      'errors 0/s',
      'congestion: discards 2.0/s',
      'link quality 5/5',
      'Congestion 800 %',
    ]);
    expect(errorMarkRadius(congested)).toBeNull();
  });

  it('a network without PM categories says so, and shows no category value', () => {
    const ethernet = linkState('eth-switch/2->eth-node/1', {
      errorsPerSecond: 0,
      errors: { receiveErrors: 0 },
      // Whatever a source would claim: not shown on Ethernet.
      categories: { congestion: 7.9 },
    });
    const text = errorSummary(ethernet, 'Ethernet');
    expect(text).toContain('PM categories: not measured on Ethernet');
    expect(text).not.toMatch(/Congestion|%/);
  });

  it('unknown error counters read unknown, never 0', () => {
    expect(errorSummary(linkState('a/1->b/1', { errors: { transmitDiscards: 3 } }))).toMatch(
      /^errors unknown\n/,
    );
  });
});

describe('events by severity', () => {
  const events: EventRecord[] = [
    fabricEvent({ time: '2026-11-23T09:00:00.000Z', kind: 'traffic', detail: 'start' }),
    {
      time: '2026-11-23T09:00:01.000Z',
      kind: 'threshold',
      subject: 'a->b',
      detail: 'x',
      severity: 'warning',
    },
    {
      time: '2026-11-23T09:00:02.000Z',
      kind: 'threshold',
      subject: 'a->b',
      detail: 'y',
      severity: 'critical',
    },
  ];
  it('keeps those at or above the floor, newest first; no severity is info', () => {
    expect(eventsAtLeast(events, 'warning').map((e) => e.detail)).toEqual(['y', 'x']);
    expect(eventsAtLeast(events, 'info')).toHaveLength(3);
    expect(eventsAtLeast(events, 'critical').map((e) => e.detail)).toEqual(['y']);
    expect(parseSeverity('error')).toBe('error');
    expect(parseSeverity('bogus')).toBe('warning');
  });
});

describe('worst directions', () => {
  it('those past a threshold, by their worst category, at most the limit', () => {
    const a = { ...link(null, { integrity: 1.2 }), id: 'a' };
    const b = { ...link(null, { security: 3, integrity: 2 }), id: 'b' };
    const c = { ...link(null, { congestion: 0.9 }), id: 'c' };
    expect(worstDirections([a, b, c], 5).map((w) => [w.link.id, w.category])).toEqual([
      ['b', 'security'],
      ['a', 'integrity'],
    ]);
    expect(worstDirections([a, b, c], 1)).toHaveLength(1);
    expect(worstDirections(null, 5)).toEqual([]);
  });

  it("is each direction's first crossed category, as crossedCategories orders them", () => {
    const value = fc.option(fc.constantFrom(0, 0.5, 1, 1.5, 3, 3), { nil: null });
    fc.assert(
      fc.property(
        fc.array(fc.record({ integrity: value, congestion: value, security: value, routing: value }), {
          maxLength: 8,
        }),
        (categories) => {
          const links = categories.map((c, i) => ({ ...link(null, c), id: `l${i}` }));
          const expected = links
            .map((l) => ({ l, worst: crossedCategories(l)[0] }))
            .filter((x) => x.worst !== undefined)
            .map((x) => [x.l.id, x.worst?.category, x.worst?.value]);
          const got = worstDirections(links, links.length).map((w) => [w.link.id, w.category, w.value]);
          expect(got.sort()).toEqual(expected.sort());
        },
      ),
    );
  });
});

describe('a category against its threshold, as read', () => {
  it('a percentage up to ten times the threshold, a multiple beyond', () => {
    expect(ofThreshold(0.854)).toBe('85 %');
    expect(ofThreshold(4.5)).toBe('450 %');
    expect(ofThreshold(1001.2)).toBe('1,001 × threshold');
  });
});

describe('congestion marking', () => {
  it('marks directions waiting at least CONGESTED_WAIT of the time, never unknown ones', () => {
    expect(isCongested(0.5)).toBe(true);
    expect(isCongested(CONGESTED_WAIT)).toBe(true);
    expect(isCongested(0.02)).toBe(false);
    expect(isCongested(0)).toBe(false);
    expect(isCongested(null)).toBe(false);
    expect(isCongested(undefined)).toBe(false);
    expect(isCongested(Number.NaN)).toBe(false);
  });
});
