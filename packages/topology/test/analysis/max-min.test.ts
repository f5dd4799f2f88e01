import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { maxMinFair } from '../../src/index.ts';

const REL = 1e-9;

describe('maxMinFair', () => {
  it('gives a lone flow its narrowest channel', () => {
    const rates = maxMinFair({ paths: [[0, 1, 2]], demands: [Infinity], capacities: [10, 4, 8] });
    expect(Array.from(rates)).toEqual([4]);
  });

  it('splits a shared channel evenly and lets the others fill what is left', () => {
    // Flows 0 and 1 share channel 0 (cap 10); flow 1 also crosses channel 1 (cap 2).
    const rates = maxMinFair({
      paths: [[0], [0, 1], [1]],
      demands: [Infinity, Infinity, Infinity],
      capacities: [10, 2],
    });
    expect(Array.from(rates)).toEqual([9, 1, 1]);
  });

  it('stops a flow at its demand and hands the rest to others', () => {
    const rates = maxMinFair({ paths: [[0], [0]], demands: [3, Infinity], capacities: [10] });
    expect(Array.from(rates)).toEqual([3, 7]);
  });

  it('gives nothing across a zero-capacity (down) channel', () => {
    const rates = maxMinFair({ paths: [[0, 1], [1]], demands: [Infinity, Infinity], capacities: [0, 10] });
    expect(Array.from(rates)).toEqual([0, 10]);
  });

  it('refuses bad input with a precise message', () => {
    expect(() => maxMinFair({ paths: [[5]], demands: [1], capacities: [1] })).toThrow(
      /channel 5 is not in 0..0/,
    );
    expect(() => maxMinFair({ paths: [[0]], demands: [-1], capacities: [1] })).toThrow(/demand must be ≥ 0/);
    expect(() => maxMinFair({ paths: [[]], demands: [Infinity], capacities: [1] })).toThrow(/finite demand/);
    expect(() => maxMinFair({ paths: [[0]], demands: [], capacities: [1] })).toThrow(/1 paths but 0 demands/);
  });

  const problems = fc.integer({ min: 1, max: 16 }).chain((channelCount) =>
    fc.record({
      capacities: fc.array(fc.constantFrom(0, 1, 2.5, 7, 10, 12.375e9), {
        minLength: channelCount,
        maxLength: channelCount,
      }),
      flows: fc.array(
        fc.record({
          path: fc.uniqueArray(fc.integer({ min: 0, max: channelCount - 1 }), { minLength: 1, maxLength: 5 }),
          demand: fc.oneof(fc.constant(Infinity), fc.double({ min: 0, max: 20, noNaN: true })),
        }),
        { minLength: 1, maxLength: 30 },
      ),
    }),
  );
  const solve = (p: { capacities: number[]; flows: { path: number[]; demand: number }[] }) =>
    maxMinFair({
      paths: p.flows.map((f) => f.path),
      demands: p.flows.map((f) => f.demand),
      capacities: p.capacities,
    });

  it('never loads a channel over its capacity', () => {
    fc.assert(
      fc.property(problems, (p) => {
        const rates = solve(p);
        const load = new Float64Array(p.capacities.length);
        p.flows.forEach((f, i) => {
          for (const c of f.path) load[c] = (load[c] as number) + (rates[i] as number);
        });
        p.capacities.forEach((cap, c) => {
          expect(load[c]).toBeLessThanOrEqual(cap * (1 + REL) + 1e-12);
        });
      }),
    );
  });

  it('bottlenecks every flow: it meets its demand or has the top rate on a saturated channel', () => {
    fc.assert(
      fc.property(problems, (p) => {
        const rates = solve(p);
        const load = new Float64Array(p.capacities.length);
        const top = new Float64Array(p.capacities.length);
        p.flows.forEach((f, i) => {
          for (const c of f.path) {
            load[c] = (load[c] as number) + (rates[i] as number);
            top[c] = Math.max(top[c] as number, rates[i] as number);
          }
        });
        p.flows.forEach((f, i) => {
          const rate = rates[i] as number;
          expect(rate).toBeGreaterThanOrEqual(0);
          expect(rate).toBeLessThanOrEqual(f.demand * (1 + REL));
          if (rate >= f.demand * (1 - REL)) return;
          const bottlenecked = f.path.some(
            (c) =>
              (load[c] as number) >= (p.capacities[c] as number) * (1 - REL) &&
              rate >= (top[c] as number) * (1 - REL),
          );
          expect(bottlenecked).toBe(true);
        });
      }),
    );
  });

  it('is deterministic', () => {
    fc.assert(
      fc.property(problems, (p) => {
        expect(Array.from(solve(p))).toEqual(Array.from(solve(p)));
      }),
    );
  });
});
