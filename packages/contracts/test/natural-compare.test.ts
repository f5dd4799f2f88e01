import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { naturalCompare } from '../src/names.ts';

// Names as fabrics have them: letters, digits (some zero-padded), '/', '-', '.', and either case.
const name = fc.stringMatching(/^[a-zA-Z0-9/._-]{0,12}$/);
const sign = (n: number) => Math.sign(n);

describe('naturalCompare: names in the order people count them', () => {
  it('counts numbers as numbers where a string sort does not', () => {
    const ports = ['core1/10', 'core1/2', 'core1/1', 'core10/1', 'core2/1'];
    expect([...ports].sort()).toEqual(['core1/1', 'core1/10', 'core1/2', 'core10/1', 'core2/1']);
    expect([...ports].sort(naturalCompare)).toEqual([
      'core1/1',
      'core1/2',
      'core1/10',
      'core2/1',
      'core10/1',
    ]);
    expect(['nodeB', 'NODEA', 'node10', 'node9'].sort(naturalCompare)).toEqual([
      'node9',
      'node10',
      'NODEA',
      'nodeB',
    ]);
  });

  it('is a total order: reflexive, antisymmetric, transitive, and only equal strings tie', () => {
    fc.assert(
      fc.property(name, name, name, (a, b, c) => {
        expect(naturalCompare(a, a)).toBe(0);
        expect(sign(naturalCompare(a, b)) + sign(naturalCompare(b, a))).toBe(0);
        if (a !== b) expect(naturalCompare(a, b)).not.toBe(0);
        if (naturalCompare(a, b) <= 0 && naturalCompare(b, c) <= 0)
          expect(naturalCompare(a, c)).toBeLessThanOrEqual(0);
      }),
      { numRuns: 3000 },
    );
  });

  it('orders a shared prefix by the number after it, whatever its width', () => {
    fc.assert(
      fc.property(
        name.filter((s) => !/\d$/.test(s)),
        fc.nat(1e9),
        fc.nat(1e9),
        (prefix, m, n) => {
          expect(sign(naturalCompare(`${prefix}${m}/1`, `${prefix}${n}/1`))).toBe(sign(m - n));
        },
      ),
    );
  });

  it('sorts the same whatever order the input came in', () => {
    fc.assert(
      fc.property(fc.array(name, { maxLength: 30 }), (names) => {
        const once = [...names].sort(naturalCompare);
        expect([...names].reverse().sort(naturalCompare)).toEqual(once);
      }),
    );
  });
});
