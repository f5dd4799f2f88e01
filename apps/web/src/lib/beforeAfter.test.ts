import { describe, expect, it } from 'vitest';
import type { LinkDirectionState } from '../api/types.ts';
import { compareLinks, relativeChange } from './beforeAfter.ts';
import { eventAnnotations, eventLabel } from './events.ts';
import { fabricEvent, linkState } from './testFixtures.ts';

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

describe('events', () => {
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
    const marks = eventAnnotations(events);
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
  });
});
