import { describe, expect, it } from 'vitest';
import {
  formatAge,
  formatFabricType,
  formatGBps,
  formatGBpsValue,
  formatMpps,
  formatPercent,
  formatPercentValue,
  MISSING,
} from './format.ts';

describe('format', () => {
  it('prints throughput in GB/s (1e9 bytes/s) as the seed does', () => {
    expect(formatGBps(12.38e9)).toBe('12.38 GB/s');
    expect(formatGBps(24.7e9, 1)).toBe('24.7 GB/s');
    expect(formatGBpsValue(12.5e9)).toBe('12.50');
    expect(formatGBps(0)).toBe('0.00 GB/s');
  });

  it('prints unknown values as a dash, never as zero', () => {
    for (const f of [formatGBps, formatGBpsValue, formatPercent, formatPercentValue, formatMpps, formatAge]) {
      expect(f(null)).toBe(MISSING);
      expect(f(undefined)).toBe(MISSING);
      expect(f(Number.NaN)).toBe(MISSING);
    }
  });

  it('prints utilization fractions as percent', () => {
    expect(formatPercent(0.5)).toBe('50.0 %');
    expect(formatPercentValue(0.995)).toBe('99.5');
    expect(formatPercent(1, 0)).toBe('100 %');
  });

  it('prints packet rates in millions', () => {
    expect(formatMpps(1_520_000)).toBe('1.52');
  });

  it('prints ages compactly', () => {
    expect(formatAge(1.234)).toBe('1.2 s');
    expect(formatAge(-0.2)).toBe('0.0 s');
    expect(formatAge(42.9)).toBe('42 s');
    expect(formatAge(185)).toBe('3 min 5 s');
    expect(formatAge(7440)).toBe('2 h 4 min');
  });

  it('names fabric types as vendors write them', () => {
    expect(formatFabricType('omnipath')).toBe('Omni-Path');
    expect(formatFabricType('infiniband')).toBe('InfiniBand');
    expect(formatFabricType('other')).toBe('other');
  });
});
