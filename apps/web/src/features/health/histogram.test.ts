import { describe, expect, it } from 'vitest';
import { bucketLabel, histogramBars } from './histogram.ts';

describe('histogramBars', () => {
  it('scales bars to the largest bucket', () => {
    const g = histogramBars([0, 0, 0, 0, 0, 2, 0, 0, 0, 4], 200, 100);
    expect(g.max).toBe(4);
    expect(g.total).toBe(6);
    expect(g.bars[9]?.height).toBeCloseTo(100);
    expect(g.bars[5]?.height).toBeCloseTo(50);
    expect(g.bars[0]?.height).toBe(0);
    expect(g.bars[1]?.x ?? 0).toBeGreaterThan(g.bars[0]?.x ?? 0);
  });

  it('draws an all-zero histogram flat', () => {
    const g = histogramBars(Array(10).fill(0), 200, 100);
    expect(g.bars.every((b) => b.height === 0)).toBe(true);
  });

  it('rejects a wrong bucket count', () => {
    expect(() => histogramBars([1, 2], 10, 10)).toThrow('expected 10 buckets, got 2');
  });

  it('labels buckets in percent', () => {
    expect(bucketLabel(0)).toBe('0–10 %');
    expect(bucketLabel(9)).toBe('90–100 %');
  });
});
