import type { FaultInfo, LinkDirectionState } from '@fabscope/contracts';
import { describe, expect, it } from 'vitest';
import { twoTier } from '../../../test/testTopologies.ts';
import {
  downLinkIds,
  downLinkIdsCompact,
  faultSummary,
  faultTarget,
  islChoices,
  linkLabel,
  undoFault,
} from './faults.ts';

const fault = (type: FaultInfo['type'], target: string, extra: Partial<FaultInfo> = {}): FaultInfo => ({
  id: 'f1',
  type,
  target,
  sinceMs: 0,
  ...extra,
});

describe('fault panel helpers', () => {
  it('offers the ISLs of a fabric, labelled by both ends', () => {
    const fabric = twoTier(2, 2, 2);
    const choices = islChoices(fabric);
    expect(choices).toHaveLength(4);
    expect(choices.every((c) => c.label.includes(' ↔ '))).toBe(true);
    expect(choices.every((c) => c.kind === 'isl')).toBe(true);
    expect(islChoices(null)).toEqual([]);
    // A single switch has no ISLs: its host links are offered instead of an empty list.
    const single = twoTier(1, 0, 3);
    expect(islChoices(single).map((c) => [c.label, c.kind])).toEqual([
      ['host1/1 ↔ edge1/1', 'host'],
      ['host2/1 ↔ edge1/2', 'host'],
      ['host3/1 ↔ edge1/3', 'host'],
    ]);
    expect(linkLabel('edge1/4--core2/1')).toBe('edge1/4 ↔ core2/1');
  });

  it('describes active faults', () => {
    expect(faultSummary(fault('link-down', 'edge1/4--core2/1'))).toBe('link down');
    expect(faultSummary(fault('flap', 'x--y', { period: 2, downFor: 1 }))).toBe(
      'flapping every 2 s (down 1 s)',
    );
    expect(faultSummary(fault('symbol-errors', 'core1/1', { rate: 10 }))).toBe('symbol errors 10/s');
    expect(faultTarget(fault('link-down', 'edge1/4--core2/1'))).toBe('edge1/4 ↔ core2/1');
    expect(faultTarget(fault('switch-down', 'core1'))).toBe('core1');
  });

  it('knows how to repair each kind of fault', () => {
    expect(undoFault(fault('link-down', 'edge1/4--core2/1'))).toEqual({
      type: 'link-up',
      link: 'edge1/4--core2/1',
    });
    expect(undoFault(fault('flap', 'a/1--b/1'))).toEqual({ type: 'link-up', link: 'a/1--b/1' });
    expect(undoFault(fault('symbol-errors', 'a/1--b/1'))).toEqual({
      type: 'symbol-errors',
      link: 'a/1--b/1',
      rate: 0,
    });
    expect(undoFault(fault('symbol-errors', 'core1/1'))).toEqual({
      type: 'symbol-errors',
      node: 'core1',
      port: 1,
      rate: 0,
    });
    expect(undoFault(fault('switch-down', 'core1'))).toEqual({ type: 'switch-up', node: 'core1' });
    expect(undoFault(fault('restart', 'nodeA'))).toBeNull();
  });

  it('finds the links the counters report down, in either stream encoding', () => {
    const sample = (linkId: string, linkUp: boolean | null) => ({ linkId, linkUp }) as LinkDirectionState;
    expect(
      downLinkIds([
        sample('b/1--c/1', false),
        sample('a/1--b/2', false),
        sample('b/1--c/1', false),
        sample('x', true),
      ]),
    ).toEqual(['a/1--b/2', 'b/1--c/1']);
    expect(downLinkIds(null)).toEqual([]);
    const fabric = twoTier(2, 2, 2);
    expect(downLinkIdsCompact(fabric, [3, 2, 0])).toEqual(
      [fabric.links[0]?.id, fabric.links[1]?.id].sort((a, b) =>
        (a ?? '').localeCompare(b ?? '', 'en', { numeric: true }),
      ),
    );
  });
});
