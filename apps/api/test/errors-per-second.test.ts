import { ERROR_FIELDS } from '@fabscope/contracts';
import { describe, expect, it } from 'vitest';
import { errorsPerSecond, UNKNOWN_ERRORS } from '../src/lib/link-errors.ts';

describe('a direction’s errors per second', () => {
  it('sums the error counters only: not congestion or bubble counters, not the gauges', () => {
    expect(
      errorsPerSecond({
        ...UNKNOWN_ERRORS,
        receiveErrors: 3,
        symbolErrors: 1000,
        congestionDiscards: 50,
        receiveFecn: 7,
        receiveBubble: 9,
        linkQualityIndicator: 2,
        linkWidthDowngradeLanes: 1,
      }),
    ).toBe(1003);
  });

  it('is unknown when no error counter is known, 0 when they are known and quiet', () => {
    expect(errorsPerSecond(UNKNOWN_ERRORS)).toBeNull();
    expect(errorsPerSecond({ ...UNKNOWN_ERRORS, congestionDiscards: 5 })).toBeNull();
    expect(errorsPerSecond({ ...UNKNOWN_ERRORS, linkDowned: 0 })).toBe(0);
    // Every field the API reports is one of the counters or gauges it knows.
    expect(Object.keys(UNKNOWN_ERRORS).sort()).toEqual([...ERROR_FIELDS].sort());
  });
});
