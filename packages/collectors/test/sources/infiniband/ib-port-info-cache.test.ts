// When a sweep asks a port's PortInfo, and what a port not asked carries: the rules that let a steady
// sweep send two MADs a port instead of three without a link state going unseen for long.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PortInfoCache } from '../../../src/sources/infiniband/ib-port-info-cache.ts';
import {
  FAILED_NO_ANSWER,
  HAS_PORT_COUNTERS,
  HAS_PORT_INFO,
  OFF,
  RECORD_SIZE,
  setFailure,
} from '../../../src/sources/infiniband/ib-port-record.ts';

const LINK_ERROR_RECOVERY = OFF.errors + 2;
const LINK_DOWNED = OFF.errors + 4;

/** One sweep of `n` ports as the window leaves it: PortInfo answered where asked, counters everywhere. */
function sweep(cache: PortInfoCache, n: number, every: number, state = (_i: number) => [4, 5]): Buffer {
  cache.beginSweep(every);
  const records = Buffer.alloc(n * RECORD_SIZE);
  for (let i = 0; i < n; i++) {
    const base = i * RECORD_SIZE;
    records[base] = HAS_PORT_COUNTERS;
    if (cache.due(i)) {
      const [portState, physicalState] = state(i);
      records[base + OFF.portState] = portState as number;
      records[base + OFF.physicalState] = physicalState as number;
      records[base + OFF.linkWidthActive] = 2;
      records[base] |= HAS_PORT_INFO;
    }
  }
  return records;
}

describe('PortInfoCache', () => {
  it('asks every port on the first sweep, then each Active LinkUp port at least once in any `every` sweeps', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 40 }), fc.integer({ min: 1, max: 12 }), (n, every) => {
        const cache = new PortInfoCache(n);
        const asked: number[][] = [];
        for (let s = 0; s < 3 * every + 1; s++) {
          const records = sweep(cache, n, every);
          asked.push([...cache.asked]);
          cache.settle(records);
        }
        expect(asked[0]).toEqual(new Array(n).fill(1));
        let longestUnasked = 0;
        for (let i = 0; i < n; i++) {
          let since = 0;
          for (const a of asked) {
            since = a[i] === 1 ? 0 : since + 1;
            longestUnasked = Math.max(longestUnasked, since);
          }
        }
        expect(longestUnasked).toBeLessThan(every);
        // Steady: about one port in `every` a sweep.
        const last = asked.at(-1) as number[];
        expect(last.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(Math.ceil(n / every));
      }),
      { numRuns: 50 },
    );
  });

  it('gives a port not asked its last answer, marked read', () => {
    const cache = new PortInfoCache(2);
    cache.settle(sweep(cache, 2, 100));
    const records = sweep(cache, 2, 100);
    expect([...cache.asked]).toEqual([0, 0]);
    cache.settle(records);
    expect((records[OFF.flags] as number) & HAS_PORT_INFO).toBe(HAS_PORT_INFO);
    expect([records[OFF.portState], records[OFF.physicalState], records[OFF.linkWidthActive]]).toEqual([
      4, 5, 2,
    ]);
  });

  it('asks a port whose LinkDowned or LinkErrorRecovery moved, once, and a port not Active or LinkUp every sweep', () => {
    const cache = new PortInfoCache(3);
    cache.settle(sweep(cache, 3, 100, (i) => (i === 2 ? [1, 2] : [4, 5])));
    const records = sweep(cache, 3, 100);
    expect([...cache.asked]).toEqual([0, 0, 1]);
    records.writeUInt16BE(1, LINK_DOWNED);
    records.writeUInt16BE(7, RECORD_SIZE + LINK_ERROR_RECOVERY);
    expect(cache.linkCountersMoved(records, 0, false)).toBe(true);
    expect(cache.linkCountersMoved(records, 0, false)).toBe(false);
    expect(cache.linkCountersMoved(records, 1, false)).toBe(true);
    expect([...cache.asked]).toEqual([1, 1, 1]);
    cache.settle(records);
    // The counts as read are the new baseline: unmoved, nothing asked.
    const next = sweep(cache, 3, 100);
    next.writeUInt16BE(1, LINK_DOWNED);
    next.writeUInt16BE(7, RECORD_SIZE + LINK_ERROR_RECOVERY);
    expect(cache.linkCountersMoved(next, 0, false)).toBe(false);
    expect(cache.linkCountersMoved(next, 1, false)).toBe(false);
  });

  it('leaves PortInfo unknown where the counters went unanswered, and asks it in the next sweep', () => {
    const cache = new PortInfoCache(1);
    cache.settle(sweep(cache, 1, 100));
    const records = sweep(cache, 1, 100);
    records[OFF.flags] = 0;
    setFailure(records, 0, 1, FAILED_NO_ANSWER);
    cache.settle(records);
    expect((records[OFF.flags] as number) & HAS_PORT_INFO).toBe(0);
    expect(records[OFF.portState]).toBe(0);
    expect(records.readUInt16BE(OFF.failures) & 3).toBe(FAILED_NO_ANSWER);
    sweep(cache, 1, 100);
    expect([...cache.asked]).toEqual([1]);
  });
});
