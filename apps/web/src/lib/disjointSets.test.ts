import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DisjointSets } from './disjointSets.ts';

/** Connected components the slow way: repeated merging of overlapping sets. */
function components(n: number, edges: readonly [number, number][]): number[][] {
  let sets = Array.from({ length: n }, (_, i) => new Set([i]));
  for (const [a, b] of edges) {
    const sa = sets.find((s) => s.has(a)) as Set<number>;
    const sb = sets.find((s) => s.has(b)) as Set<number>;
    if (sa === sb) continue;
    sets = sets.filter((s) => s !== sb);
    for (const x of sb) sa.add(x);
  }
  return sets.map((s) => [...s].sort((x, y) => x - y)).sort((x, y) => (x[0] ?? 0) - (y[0] ?? 0));
}

const graphs = fc
  .integer({ min: 1, max: 40 })
  .chain((n) =>
    fc.tuple(fc.constant(n), fc.array(fc.tuple(fc.nat(n - 1), fc.nat(n - 1)), { maxLength: 80 })),
  );

describe('DisjointSets', () => {
  it('groups keys as the connected components of the unions, whatever their order', () => {
    fc.assert(
      fc.property(graphs, ([n, edges]) => {
        const sets = new DisjointSets(Array.from({ length: n }, (_, i) => i));
        for (const [a, b] of edges) sets.union(a, b);
        const groups = sets.groups().map((g) => [...g].sort((x, y) => x - y));
        expect(groups.sort((x, y) => (x[0] ?? 0) - (y[0] ?? 0))).toEqual(components(n, edges));
        for (const [a, b] of edges) expect(sets.find(a)).toBe(sets.find(b));
      }),
    );
  });

  it('keeps keys in the order added, sets in the order of their first key', () => {
    const sets = new DisjointSets(['c', 'a', 'b', 'd']);
    expect(sets.union('d', 'c')).toBe(true);
    expect(sets.union('c', 'd')).toBe(false);
    expect(sets.groups()).toEqual([['c', 'd'], ['a'], ['b']]);
  });

  it('stays shallow on a long chain of unions (no stack, no quadratic walk)', () => {
    const n = 100_000;
    const sets = new DisjointSets(Array.from({ length: n }, (_, i) => i));
    for (let i = 1; i < n; i++) sets.union(i - 1, i);
    expect(sets.groups()).toHaveLength(1);
  });

  it('names a key it was never given', () => {
    const sets = new DisjointSets<string>(['a']);
    expect(sets.has('b')).toBe(false);
    expect(() => sets.find('b')).toThrow('DisjointSets: unknown key b');
    expect(() => sets.union('a', 'b')).toThrow('unknown key b');
  });
});
