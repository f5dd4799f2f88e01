import { describe, expect, it } from 'vitest';
import {
  algorithmLabel,
  arFrequencyLabel,
  arFrequencyMs,
  thresholdLabel,
  thresholdPercent,
} from './adaptiveRouting.ts';

describe('adaptive routing labels', () => {
  it('maps thresholds to tolerated ISL load as opafm.xml documents', () => {
    expect([1, 2, 3, 4, 5, 6, 7].map(thresholdPercent)).toEqual([100, 90, 80, 70, 65, 60, 55]);
    expect(thresholdPercent(0)).toBeNull();
    expect(thresholdLabel(0)).toBe('0 — firmware default');
    expect(thresholdLabel(7)).toBe('7 — 55 % ISL load');
  });

  it('shows AR frequency as 2^n × 64 ms', () => {
    expect(arFrequencyMs(0)).toBe(64);
    expect(arFrequencyMs(7)).toBe(8192);
    expect(arFrequencyLabel(0)).toBe('0 — 64 ms');
    expect(arFrequencyLabel(4)).toBe('4 — 1.024 s');
    expect(arFrequencyLabel(7)).toBe('7 — 8.192 s');
  });

  it('names algorithms', () => {
    expect(algorithmLabel(2)).toBe('2 — GreedyRandom');
    expect(algorithmLabel(9)).toBe('9');
  });
});
