import { describe, expect, it } from 'vitest';
import { describeTopologyChange, linkText, tiersOf } from '../../src/index.ts';

const snapshot = {
  nodes: [
    { id: 'core1', tier: 2 },
    { id: 'edge1', tier: 1 },
    { id: 'nodeA', tier: 0 },
  ],
} as Parameters<typeof tiersOf>[0];

describe('a cable written in topology changes', () => {
  it('is written one way whatever order its ends were declared in: the end nearer the hosts first', () => {
    const tierOf = tiersOf(snapshot);
    const declared = { a: { node: 'core1', port: 1 }, b: { node: 'edge1', port: 3 } };
    const reversed = { a: declared.b, b: declared.a };
    expect(linkText(declared, tierOf)).toBe('edge1/3--core1/1');
    expect(linkText(reversed, tierOf)).toBe('edge1/3--core1/1');
    expect(linkText({ a: { node: 'edge1', port: 1 }, b: { node: 'nodeA', port: 1 } }, tierOf)).toBe(
      'nodeA/1--edge1/1',
    );
    const removed = { kind: 'link-removed', link: { ...declared, kind: 'isl', rateGbps: 100 } } as const;
    expect(describeTopologyChange(removed, tierOf).subject).toBe('edge1/3--core1/1');
  });

  it('keeps the declared order where a tier is not known (a node gone from the fabric)', () => {
    const link = { a: { node: 'core9', port: 1 }, b: { node: 'edge1', port: 3 } };
    expect(linkText(link, tiersOf(snapshot))).toBe('core9/1--edge1/3');
    expect(linkText(link)).toBe('core9/1--edge1/3');
  });
});
