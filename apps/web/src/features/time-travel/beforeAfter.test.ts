import type { LinkDirectionState } from '@fabscope/contracts';
import { describe, expect, it } from 'vitest';
import { linkState } from '../../test/testFixtures.ts';
import { compareLinks, relativeChange } from './beforeAfter.ts';

function link(id: string, utilization: number | null): LinkDirectionState {
  return linkState(id, { utilization });
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

  it('a relative change needs both totals', () => {
    expect(relativeChange(12.4e9, 24.8e9)).toBeCloseTo(1);
    expect(relativeChange(null, 1)).toBeNull();
    expect(relativeChange(0, 1)).toBeNull();
  });
});
