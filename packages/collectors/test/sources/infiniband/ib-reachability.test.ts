import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { IbReachability, UNANSWERED_BACKOFF } from '../../../src/sources/infiniband/ib-reachability.ts';

const A = '0xa';
const B = '0xb';

/** Sweeps until A is read again (at most `limit`), discovering before each; how many it was left alone. */
function sweepsLeftAlone(reach: IbReachability, limit: number): number {
  for (let n = 0; n < limit; n++) {
    reach.discovered(new Set([A, B]));
    if (reach.reads(A)) return n;
    reach.swept(new Map([[B, true]]), 0);
  }
  return limit;
}

describe('IbReachability', () => {
  it('reads no node the last discovery did not find, and reads it again once found', () => {
    const reach = new IbReachability();
    expect(reach.reads(A)).toBe(true);
    reach.discovered(new Set([B]));
    expect(reach.reads(A)).toBe(false);
    expect(reach.reason(A)).toMatch(/discovery does not find the node/);
    reach.discovered(new Set([A, B]));
    expect(reach.reads(A)).toBe(true);
  });

  it('leaves an unanswered node alone until a discovery has run, then asks for discovery', () => {
    const reach = new IbReachability();
    reach.discovered(new Set([A, B]));
    expect(
      reach.swept(
        new Map([
          [A, false],
          [B, true],
        ]),
        Date.UTC(2026, 0, 1),
      ),
    ).toBe(true);
    for (let i = 0; i < 5; i++) {
      expect(reach.reads(A)).toBe(false);
      expect(reach.swept(new Map([[B, true]]), 0)).toBe(false);
    }
    expect(reach.reason(A)).toMatch(/unanswered 1 time\(s\) in a row since 2026-01-01T00:00:00.000Z/);
    reach.discovered(new Set([A, B]));
    expect(reach.reads(A)).toBe(true);
    expect(reach.reads(B)).toBe(true);
  });

  it('backs off 2^(n-1) sweeps after n unanswered reads in a row, bounded; an answer resets it', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 12 }), (misses) => {
        const reach = new IbReachability();
        reach.discovered(new Set([A, B]));
        let alone = 0;
        for (let m = 1; m <= misses; m++) {
          reach.swept(new Map([[A, false]]), 0);
          alone = sweepsLeftAlone(reach, 200);
        }
        expect(alone).toBe(Math.min(2 ** (misses - 1), UNANSWERED_BACKOFF.maxSweeps));
        reach.swept(new Map([[A, true]]), 0);
        expect(reach.reads(A)).toBe(true);
        reach.swept(new Map([[A, false]]), 0);
        expect(sweepsLeftAlone(reach, 200)).toBe(1);
      }),
    );
  });
});
