import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  congestionFields,
  decodeCongestion,
  pauseFrameSeconds,
} from '../../../src/sources/snmp/snmp-congestion.ts';

describe('PFC pause and ECN marks by SNMP', () => {
  it('reads ieee8021PfcIfTable per ifIndex and sums ARISTA-QOS-MIB ECN marks over the queues', () => {
    const pfc = { '1': { '2': 7, '3': 1192 }, '2': { '2': 0, '3': 0 } };
    const ecn = {
      '1.3': { '4': Buffer.from([0x01, 0x00]) },
      '1.4': { '4': 6n },
      '3.3': { '4': Buffer.from([0x2e, 0x19, 0xd8]) },
    };
    const byIndex = decodeCongestion(pfc, ecn);
    expect(byIndex.get(1)).toEqual({ pauseSent: 7, pauseReceived: 1192, ecnMarked: 262n });
    expect(byIndex.get(2)).toEqual({ pauseSent: 0, pauseReceived: 0, ecnMarked: null });
    // An interface with ECN rows and no PFC row: its pause is unknown, never 0.
    expect(byIndex.get(3)).toEqual({ pauseSent: null, pauseReceived: null, ecnMarked: 0x2e19d8n });
  });

  it('leaves an agent without the tables unknown: wait NaN, ECN not reported', () => {
    const fields = congestionFields(undefined, 100_000);
    expect(fields.transmitWaitTicks).toBeNaN();
    expect(fields.ecn).toEqual({});
    expect(
      congestionFields({ pauseReceived: null, pauseSent: 3, ecnMarked: null }, 100_000).ecn.markFecn,
    ).toBeNaN();
    expect(decodeCongestion(undefined, undefined).size).toBe(0);
    // A malformed value (not a Counter32) is unknown.
    expect(decodeCongestion({ '5': { '2': -1, '3': 'x' } }, undefined).get(5)).toEqual({
      pauseSent: null,
      pauseReceived: null,
      ecnMarked: null,
    });
  });

  it("turns pause frames into the time paused: each frame a refresh at half PFC's longest pause", () => {
    // 100 GbE: 65535 quanta × 512 bit times / 2 = 167.77 µs a frame.
    expect(pauseFrameSeconds(100_000)).toBeCloseTo(167.7696e-6, 10);
    expect(pauseFrameSeconds(null)).toBeNaN();
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 800_000 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (mbps, share) => {
          // A port paused `share` of a second is sent share / tick frames by a switch refreshing at half the pause.
          const tick = pauseFrameSeconds(mbps);
          const frames = share / tick;
          const f = congestionFields({ pauseReceived: frames, pauseSent: 0, ecnMarked: 0n }, mbps);
          expect(f.transmitWaitTicks * (f.transmitWaitTickSeconds as number)).toBeCloseTo(share, 9);
        },
      ),
    );
  });
});
