import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { comparisonText, directionLabel, formatImbalance, imbalance } from './staticLoad.ts';

describe('static load wording', () => {
  it('imbalance is the busiest port over the mean, at least 1 for any group of counts', () => {
    fc.assert(
      fc.property(fc.array(fc.nat({ max: 1_000_000 }), { minLength: 1, maxLength: 64 }), (counts) => {
        const max = Math.max(...counts);
        const mean = counts.reduce((a, b) => a + b, 0) / counts.length;
        const ratio = imbalance({ max, mean });
        if (mean === 0) expect(ratio).toBeNull();
        else expect(ratio as number).toBeGreaterThanOrEqual(1 - 1e-12);
      }),
    );
    expect(formatImbalance(imbalance({ max: 28, mean: 28 }))).toBe('1.00×');
    expect(formatImbalance(imbalance({ max: 0, mean: 0 }))).toBe('—');
  });

  it('says why nothing is compared, and how strongly the load follows the paths', () => {
    expect(comparisonText({ time: null, ports: 0, correlation: null })).toMatch(/No measured load/);
    expect(comparisonText({ time: 't', ports: 12, correlation: null })).toMatch(
      /^r is undefined: the measured load on 12 ports is flat/,
    );
    // Every port on the same path count: r is undefined, never "r = 0.00 … hardly".
    const even = [
      { min: 4, max: 4 },
      { min: 4, max: 4 },
    ];
    expect(comparisonText({ time: 't', ports: 12, correlation: 0 }, even)).toBe(
      'r is undefined: every switch output port carries the same number of static paths (4), so the measured load cannot follow them more or less.',
    );
    expect(
      comparisonText({ time: 't', ports: 12, correlation: 0.1 }, [
        { min: 4, max: 4 },
        { min: 2, max: 6 },
      ]),
    ).toMatch(/hardly: r = 0.10/);
    expect(comparisonText({ time: 't', ports: 1200, correlation: 0.91 })).toBe(
      'Measured load follows the static paths strongly: r = 0.91 over 1,200 ports.',
    );
    expect(comparisonText({ time: 't', ports: 12, correlation: -0.5 })).toMatch(
      /partly \(inversely\): r = -0.50/,
    );
    expect(comparisonText({ time: 't', ports: 12, correlation: 0.1 })).toMatch(/hardly/);
    expect(directionLabel('host')).toBe('to hosts');
  });
});
