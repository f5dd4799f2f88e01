import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cableId, directionText, namesCable } from '../src/names.ts';

const end = fc.record({
  node: fc.stringMatching(/^[a-zA-Z][a-zA-Z0-9_.-]{0,10}$/),
  port: fc.integer({ min: 1, max: 254 }),
  tier: fc.integer({ min: 0, max: 4 }),
});

describe('a cable’s one written form', () => {
  it('writes the end nearer the hosts first, ends on one tier in natural order', () => {
    const edge13 = { node: 'edge1', port: 3, tier: 1 };
    const core11 = { node: 'core1', port: 1, tier: 2 };
    expect(cableId(edge13, core11)).toBe('edge1/3--core1/1');
    expect(cableId(core11, edge13)).toBe('edge1/3--core1/1');
    expect(cableId({ node: 's1', port: 1, tier: 1 }, { node: 'h1', port: 1, tier: 0 })).toBe('h1/1--s1/1');
    expect(cableId({ node: 'edge10', port: 5, tier: 1 }, { node: 'edge2', port: 5, tier: 1 })).toBe(
      'edge2/5--edge10/5',
    );
  });

  it('is the same whichever order the ends come in, and names the cable read either way', () => {
    fc.assert(
      fc.property(end, end, (x, y) => {
        const id = cableId(x, y);
        expect(cableId(y, x)).toBe(id);
        const lower = x.tier < y.tier ? x : y;
        if (x.tier !== y.tier) expect(id.startsWith(`${lower.node}/${lower.port}--`)).toBe(true);
        expect(namesCable(id, `${x.node}/${x.port}--${y.node}/${y.port}`)).toBe(true);
        expect(namesCable(id, `${y.node}/${y.port}--${x.node}/${x.port}`)).toBe(true);
      }),
    );
    expect(namesCable('edge1/3--core1/1', 'edge1/3--core1/2')).toBe(false);
    expect(namesCable('edge1/3--core1/1', 'edge1/3')).toBe(false);
  });

  it('reads a direction with the arrow people read', () => {
    expect(directionText('edge1/4->core2/1')).toBe('edge1/4 → core2/1');
    expect(directionText('edge1/4')).toBe('edge1/4');
  });
});
