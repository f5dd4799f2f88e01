import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sameValues } from './sameValues.ts';

/** JSON text with every object's keys in order: equal exactly when the values read the same. */
const canonical = (v: unknown): string =>
  JSON.stringify(v, (_, x) =>
    x && typeof x === 'object' && !Array.isArray(x)
      ? Object.fromEntries(Object.entries(x).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : x,
  );

describe('sameValues (a ranked direction against the one of the message before)', () => {
  it('reads any JSON value and its copy as the same', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (v) => {
        expect(sameValues(v, structuredClone(v))).toBe(true);
      }),
    );
  });

  it('tells apart values that differ anywhere', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.jsonValue(), (a, b) => {
        expect(sameValues(a, b)).toBe(canonical(a) === canonical(b));
      }),
    );
    expect(sameValues({ u: 0.5, c: { congestion: 0.1 } }, { u: 0.5, c: { congestion: 0.2 } })).toBe(false);
    expect(sameValues({ a: 1, b: undefined }, { a: 1, c: undefined })).toBe(false);
    expect(sameValues([1, 2], { 0: 1, 1: 2 })).toBe(false);
    expect(sameValues(Number.NaN, Number.NaN)).toBe(true);
    expect(sameValues(null, {})).toBe(false);
  });
});
