import { describe, expect, it } from 'vitest';
import { ageRefreshAtMs } from './useFreshnessNow.ts';

describe('ageRefreshAtMs', () => {
  it('waits until the stream is silent: two ticks and a second after this message', () => {
    expect(ageRefreshAtMs(10_000, 0.3, { intervalMs: 1000, staleAfterSeconds: 5 })).toBe(13_000);
    expect(ageRefreshAtMs(10_000, 2, { intervalMs: 10_000, staleAfterSeconds: 25 })).toBe(31_000);
  });

  it('or until the sample turns stale, when that comes first', () => {
    expect(ageRefreshAtMs(10_000, 4.5, { intervalMs: 1000, staleAfterSeconds: 5 })).toBe(10_500);
    expect(ageRefreshAtMs(10_000, 9, { intervalMs: 1000, staleAfterSeconds: 5 })).toBe(10_000);
  });

  it('takes the defaults (1 s tick, stale after 5 s) without a policy', () => {
    expect(ageRefreshAtMs(0, null)).toBe(3000);
    expect(ageRefreshAtMs(0, 4)).toBe(1000);
  });
});
