import { describe, expect, it } from 'vitest';
import { CONGESTED_WAIT, isCongested } from './congestion.ts';

describe('congestion marking', () => {
  it('marks directions waiting at least CONGESTED_WAIT of the time, never unknown ones', () => {
    expect(isCongested(0.5)).toBe(true);
    expect(isCongested(CONGESTED_WAIT)).toBe(true);
    expect(isCongested(0.02)).toBe(false);
    expect(isCongested(0)).toBe(false);
    expect(isCongested(null)).toBe(false);
    expect(isCongested(undefined)).toBe(false);
    expect(isCongested(Number.NaN)).toBe(false);
  });
});
