import { describe, expect, it } from 'vitest';
import {
  counterRate,
  DEFAULT_PM_THRESHOLDS,
  directionCategories,
  directionErrors,
  directionTraffic,
  errorsPerSecond,
  type PortRateReading,
  UNKNOWN_CATEGORIES,
  UNKNOWN_ERRORS,
  utilizationOf,
} from '../../src/index.ts';

const port = (over: Partial<PortRateReading>): PortRateReading => ({
  transmitBytesPerSecond: null,
  receiveBytesPerSecond: null,
  transmitPacketsPerSecond: null,
  receivePacketsPerSecond: null,
  transmitWaitTicksPerSecond: null,
  transmitWaitTickSeconds: null,
  ...over,
});

describe('a link direction from its two ends (the collector’s and the API’s one formula)', () => {
  it('takes the larger of the sender’s transmit and the receiver’s receive; either end alone is enough', () => {
    const sender = port({ transmitBytesPerSecond: 100, transmitPacketsPerSecond: 2 });
    const receiver = port({ receiveBytesPerSecond: 120, receivePacketsPerSecond: 1 });
    expect(directionTraffic(sender, receiver)).toMatchObject({ bytesPerSecond: 120, packetsPerSecond: 2 });
    expect(directionTraffic(undefined, receiver).bytesPerSecond).toBe(120);
    expect(directionTraffic(sender, undefined).bytesPerSecond).toBe(100);
    expect(directionTraffic(undefined, undefined).bytesPerSecond).toBeNull();
  });

  it('XmitWait is the sender’s ticks × its tick length, clamped, unknown without a tick', () => {
    const waiting = port({ transmitWaitTicksPerSecond: 7.8125e8, transmitWaitTickSeconds: 6.4e-10 });
    expect(directionTraffic(waiting, undefined).transmitWaitFraction).toBeCloseTo(0.5, 12);
    expect(
      directionTraffic(port({ transmitWaitTicksPerSecond: 1e12, transmitWaitTickSeconds: 1e-9 }), undefined)
        .transmitWaitFraction,
    ).toBe(1);
    expect(
      directionTraffic(port({ transmitWaitTicksPerSecond: 5 }), undefined).transmitWaitFraction,
    ).toBeNull();
  });

  it('utilization is over the data rate, never clamped, unknown without a rate or a capacity', () => {
    expect(utilizationOf(6.25e9, 12.5e9)).toBe(0.5);
    expect(utilizationOf(20e9, 12.5e9)).toBe(1.6);
    expect(utilizationOf(null, 12.5e9)).toBeNull();
    expect(utilizationOf(1, 0)).toBeNull();
  });

  it('a counter that went back, a saturated 32-bit one or no time passed is a gap, never a rate', () => {
    expect(counterRate(100, 1100, 2)).toBe(500);
    expect(counterRate(1100, 100, 2)).toBeNull();
    expect(counterRate(4 * (2 ** 32 - 1), 4 * (2 ** 32 - 1), 1)).toBeNull();
    expect(counterRate(1, 2, 0)).toBeNull();
    expect(counterRate(0, 30, 1, { maxPerSecond: 20 })).toBeNull();
  });

  it('errors: the receiver’s receive counters, the sender’s transmit ones; categories unknown when nothing is', () => {
    const errors = directionErrors(
      { errors: { transmitDiscards: 3, symbolErrors: 9 } },
      { errors: { symbolErrors: 2, receiveErrors: 1 } },
    );
    expect(errors).toMatchObject({
      transmitDiscards: 3,
      symbolErrors: 2,
      receiveErrors: 1,
      vl15Dropped: null,
    });
    // Discards are congestion, not errors.
    expect(errorsPerSecond(errors)).toBe(3);
    expect(directionErrors(undefined, port({}))).toBe(UNKNOWN_ERRORS);
    const traffic = { transmitWaitFraction: null, packetsPerSecond: null, bytesPerSecond: null };
    expect(directionCategories(UNKNOWN_ERRORS, traffic, DEFAULT_PM_THRESHOLDS)).toBe(UNKNOWN_CATEGORIES);
    expect(directionCategories(errors, traffic, DEFAULT_PM_THRESHOLDS).integrity).toBe(1.02);
  });
});
