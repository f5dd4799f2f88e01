import type { LinkDirectionState } from '@fabscope/contracts';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { linkState } from '../../test/testFixtures.ts';
import { compareLinks, congestedCounts, histogramRows, relativeChange } from './beforeAfter.ts';

function link(id: string, utilization: number | null, wait: number | null = null): LinkDirectionState {
  return linkState(id, { utilization, transmitWaitFraction: wait });
}

describe('before/after', () => {
  it('lists the directions that changed most, unknown ones apart, small changes left out', () => {
    const before = [link('edge1->core1', 0), link('edge1->core2', 1), link('x', 0.5), link('y', null)];
    const after = [link('edge1->core1', 0.99), link('edge1->core2', 0.98), link('x', 0.505), link('y', 0.4)];
    const { changes, unknown } = compareLinks(before, after, { limit: 10 });
    expect(changes.map((c) => c.id)).toEqual(['edge1->core1', 'edge1->core2']);
    expect(changes[0]?.delta).toBeCloseTo(0.99);
    expect(unknown).toBe(1);
    expect(compareLinks(before, after, { limit: 1 }).changes).toHaveLength(1);
  });

  it('lists a direction whose wait dropped while its utilization stayed, ranked by the larger change', () => {
    const before = [
      link('edge1/4->core2/1', 0.99, 0.5),
      link('edge1/3->core1/1', 0.5, 0),
      link('q', 0.2, 0.3),
    ];
    const after = [
      link('edge1/4->core2/1', 0.99, 0),
      link('edge1/3->core1/1', 0.9, 0),
      link('q', 0.2, 0.305),
    ];
    const { changes } = compareLinks(before, after, { limit: 10 });
    expect(changes.map((c) => c.id)).toEqual(['edge1/4->core2/1', 'edge1/3->core1/1']);
    expect(changes[0]).toMatchObject({ delta: 0, waitBefore: 0.5, waitAfter: 0, waitDelta: -0.5, size: 0.5 });
    expect(changes[1]?.waitDelta).toBe(0);
    expect(changes[1]?.size).toBeCloseTo(0.4);
  });

  it('an unknown wait is no change of wait, never a drop to 0', () => {
    const { changes } = compareLinks(
      [link('a', 0.99, null), link('b', 0.5, 0.4)],
      [link('a', 0.99, 0), link('b', 0.8, null)],
      { limit: 10 },
    );
    expect(changes.map((c) => c.id)).toEqual(['b']);
    expect(changes[0]).toMatchObject({ waitBefore: 0.4, waitAfter: null, waitDelta: null });
  });

  it('ranks by the larger of |Δutil| and |Δwait|, and lists every direction past the threshold', () => {
    const share = fc.option(fc.double({ min: 0, max: 1, noNaN: true }), { nil: null });
    fc.assert(
      fc.property(fc.array(fc.tuple(share, share, share, share), { maxLength: 20 }), (rows) => {
        const before = rows.map(([u, w], i) => link(`e/${i}->c/1`, u, w));
        const after = rows.map(([, , u, w], i) => link(`e/${i}->c/1`, u, w));
        const { changes } = compareLinks(before, after, { limit: 100 });
        for (let i = 1; i < changes.length; i++)
          expect(changes[i - 1]?.size).toBeGreaterThanOrEqual(changes[i]?.size ?? 0);
        const expected = rows.filter(([ub, wb, ua, wa]) => {
          if (ub === null || ua === null) return false;
          const dw = wb === null || wa === null ? 0 : Math.abs(wa - wb);
          return Math.max(Math.abs(ua - ub), dw) >= 0.01;
        });
        expect(changes).toHaveLength(expected.length);
      }),
    );
  });

  it('a relative change needs both totals', () => {
    expect(relativeChange(12.4e9, 24.8e9)).toBeCloseTo(1);
    expect(relativeChange(null, 1)).toBeNull();
    expect(relativeChange(0, 1)).toBeNull();
  });
});

describe('both sides of a comparison, counted', () => {
  const direction = (id: string, kind: 'isl' | 'host', congestion: number | null) =>
    ({ id, kind, categories: { congestion } }) as unknown as LinkDirectionState;

  it('counts directions over the congestion threshold per kind, unknown apart, never as 0', () => {
    expect(
      congestedCounts([
        direction('edge1/4->core2/1', 'isl', 1.5),
        direction('edge1/3->core1/1', 'isl', 0.99),
        direction('edge1/1->nodeA/1', 'host', 1),
        direction('edge1/2->nodeB/1', 'host', null),
      ]),
    ).toEqual({ isl: 1, host: 1, unknown: 1 });
  });

  it('puts the two histograms side by side, ISL and host together; an unknown side is null', () => {
    const h = (n: number) => ({ isl: Array(10).fill(n), host: Array(10).fill(1) });
    const rows = histogramRows(h(2), null);
    expect(rows).toHaveLength(10);
    expect(rows[0]).toEqual({ label: '0–10 %', before: 3, after: null });
    expect(rows[9]?.label).toBe('90 % and over');
    expect(histogramRows(h(0), h(4)).every((r) => r.before === 1 && r.after === 5)).toBe(true);
  });
});
