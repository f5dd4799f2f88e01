import { describe, expect, it } from 'vitest';
import { buildScenario, linkDataBytesPerSecond, linkDataRateGbps } from '../../src/index.ts';

const ib = (widthSpeed: string | undefined, rateGbps: number) => ({ rateGbps, widthSpeed });

describe('link data rate after encoding', () => {
  it('takes 8b/10b off SDR, DDR and QDR and 64b/66b off FDR', () => {
    expect(linkDataRateGbps(ib('4xSDR', 10), 'infiniband')).toBe(8);
    expect(linkDataBytesPerSecond(ib('4xSDR', 10), 'infiniband')).toBe(1e9);
    expect(linkDataRateGbps(ib('4xDDR', 20), 'infiniband')).toBe(16);
    expect(linkDataRateGbps(ib('4xQDR', 40), 'infiniband')).toBe(32);
    expect(linkDataRateGbps(ib('4xFDR', 56), 'infiniband')).toBeCloseTo(54.545, 3);
    expect(linkDataRateGbps(ib('4xFDR10', 40), 'infiniband')).toBe(40);
    expect(linkDataRateGbps(ib('1xSDR', 2.5), 'infiniband')).toBe(2);
    expect(linkDataRateGbps(ib('12xQDR', 120), 'infiniband')).toBe(96);
  });

  it('quotes EDR and later at their data rate', () => {
    expect(linkDataRateGbps(ib('4xEDR', 100), 'infiniband')).toBe(100);
    expect(linkDataRateGbps(ib('4xHDR', 200), 'infiniband')).toBe(200);
    expect(linkDataRateGbps(ib('4xNDR', 400), 'infiniband')).toBe(400);
  });

  it('reads a 4x link by its quoted rate when no width × speed was read', () => {
    expect(linkDataRateGbps(ib(undefined, 10), 'infiniband')).toBe(8);
    expect(linkDataRateGbps(ib(undefined, 56), 'infiniband')).toBeCloseTo(54.545, 3);
  });

  it('leaves Omni-Path and Ethernet at the rate they are sold at (100 Gb/s = 12.5 GB/s)', () => {
    expect(linkDataBytesPerSecond(ib(undefined, 100), 'omnipath')).toBe(12.5e9);
    expect(linkDataRateGbps(ib(undefined, 40), 'ethernet')).toBe(40);
    expect(
      linkDataRateGbps({ rateGbps: 56, widthSpeed: '4xFDR', fabricType: 'infiniband' }, 'ethernet'),
    ).toBeCloseTo(54.545, 3);
  });

  it('gives the Lustre scenario its FDR links at 54.5 Gb/s and its 40 GbE links at 40', () => {
    const fabric = buildScenario('lustre-storage');
    const rates = fabric.links.map((l) => Number(linkDataRateGbps(l, fabric.fabricType).toFixed(2)));
    expect(rates).toContain(54.55);
    expect(rates).toContain(40);
  });
});
