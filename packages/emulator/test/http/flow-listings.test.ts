import type { FlowInfo } from '@fabscope/contracts';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FlowListings } from '../../src/http/flow-listings.ts';
import { arDemoEmulator } from '../helpers.ts';

function flow(id: number, job: string, bytesPerSecond: number): FlowInfo {
  return {
    id: `f${id}`,
    from: 'a',
    to: 'b',
    bytesPerSecond,
    path: [],
    pattern: 'pairs',
    job,
    transport: 'rdma',
    messageBytes: null,
    state: 'running',
    startMs: 0,
    endMs: null,
  };
}

/** Every page of the listing `first` opened, walked with its id. */
function walk(listings: FlowListings, first: ReturnType<FlowListings['open']>, limit: number): string[] {
  const ids = first.flows.map((f) => f.id);
  while (ids.length < first.total) {
    const page = listings.page(first.listing, ids.length, limit);
    if (!page) throw new Error(`listing ${first.listing} gone while walked`);
    expect(page.flows.length).toBeGreaterThan(0);
    ids.push(...page.flows.map((f) => f.id));
  }
  return ids;
}

describe('FlowListings: a listing per version of the flows', () => {
  it('an unchanged version pages the same listing again (same id, nothing read); a new version reads anew', () => {
    const listings = new FlowListings();
    let reads = 0;
    const read = (n: number) => () => {
      reads++;
      return Array.from({ length: n }, (_, i) => flow(i, 'j', 1));
    };
    const a = listings.open('', 2, 7, 1000, read(5));
    const b = listings.open('', 2, 7, 2000, read(5));
    expect(reads).toBe(1);
    expect(b).toEqual(a);
    const other = listings.open('j', 2, 7, 2000, read(5));
    expect(other.listing).not.toBe(a.listing);
    const changed = listings.open('', 2, 8, 3000, read(6));
    expect(reads).toBe(3);
    expect(changed.listing).not.toBe(a.listing);
    expect(changed.total).toBe(6);
    // The older listing still reads on for its cursors.
    expect(listings.page(a.listing, 2, 2)?.flows.map((f) => f.id)).toEqual(['f2', 'f3']);
  });

  it('holds the most recently read listings: one read every poll stays, the others go (undefined: 410)', () => {
    const listings = new FlowListings(2);
    const polled = listings.open('', 1, 1, 0, () => [flow(1, 'j', 1), flow(2, 'j', 1)]);
    const other = listings.open('x', 1, 1, 0, () => [flow(1, 'x', 1), flow(2, 'x', 1)]);
    listings.open('', 1, 1, 0, () => []);
    listings.open('y', 1, 1, 0, () => [flow(3, 'y', 1)]);
    expect(listings.page(polled.listing, 1, 1)?.flows.map((f) => f.id)).toEqual(['f2']);
    expect(listings.page(other.listing, 1, 1)).toBeUndefined();
  });

  it('fast-check: whatever the changes between reads, a walk gives its version’s flows once each, and equal versions equal first pages', () => {
    type Step =
      | { kind: 'change'; add: number; drop: number }
      | { kind: 'open'; job: string; limit: number }
      | { kind: 'walk'; limit: number };
    const step: fc.Arbitrary<Step> = fc.oneof(
      fc.record({ kind: fc.constant('change' as const), add: fc.nat(7), drop: fc.nat(3) }),
      fc.record({
        kind: fc.constant('open' as const),
        job: fc.constantFrom('', 'a', 'b'),
        limit: fc.integer({ min: 1, max: 6 }),
      }),
      fc.record({ kind: fc.constant('walk' as const), limit: fc.integer({ min: 1, max: 6 }) }),
    );
    fc.assert(
      fc.property(fc.array(step, { maxLength: 30 }), fc.integer({ min: 1, max: 4 }), (steps, keep) => {
        const listings = new FlowListings(keep);
        let flows: FlowInfo[] = [];
        let nextId = 1;
        let version = 0;
        const firstOf = new Map<string, ReturnType<FlowListings['open']>>();
        const filtered = (job: string) => flows.filter((f) => job === '' || f.job === job);
        for (const s of steps) {
          if (s.kind === 'change') {
            flows = flows.slice(s.drop);
            for (let i = 0; i < s.add; i++) flows.push(flow(nextId++, i % 2 ? 'a' : 'b', i));
            version++;
            continue;
          }
          const job = s.kind === 'open' ? s.job : '';
          const first = listings.open(job, s.limit, version, 0, () => filtered(job));
          const before = firstOf.get(`${job} ${version} ${s.limit}`);
          if (before) {
            expect(first.flows).toEqual(before.flows);
            // The same listing while it is held (jobOf does not count as a read).
            if (listings.jobOf(before.listing) !== undefined) expect(first.listing).toBe(before.listing);
          }
          firstOf.set(`${job} ${version} ${s.limit}`, first);
          expect(first.total).toBe(filtered(job).length);
          if (s.kind === 'walk') {
            const expected = filtered('').map((f) => f.id);
            // Changes between pages change no page of the listing walked.
            const snapshot = flows;
            flows = [...flows, flow(nextId++, 'a', 9)];
            version++;
            expect(walk(listings, first, s.limit)).toEqual(expected);
            expect(snapshot.map((f) => f.id)).toEqual(expected);
          }
        }
      }),
      { numRuns: 200 },
    );
  });
});

describe('Emulator.flowsVersion', () => {
  it('holds while the flows hold (time passing, reads) and changes when they start, stop or move', () => {
    const emulator = arDemoEmulator();
    const idle = emulator.flowsVersion();
    emulator.advance(500);
    expect(emulator.flowsVersion()).toBe(idle);
    emulator.startFlows({ pattern: 'permutation', seed: 3 });
    const running = emulator.flowsVersion();
    expect(running).not.toBe(idle);
    const listed = emulator.listFlows();
    emulator.advance(2000);
    expect(emulator.flowsVersion()).toBe(running);
    expect(emulator.listFlows()).toEqual(listed);
    emulator.startFlows({ pattern: 'pairs', pairs: [['nodeA', 'nodeC']], duration: '1s', start: 1 });
    const pending = emulator.flowsVersion();
    expect(pending).not.toBe(running);
    emulator.advance(1100);
    // Began: state and rates changed.
    const begun = emulator.flowsVersion();
    expect(begun).not.toBe(pending);
    emulator.advance(1000);
    // Ended.
    expect(emulator.flowsVersion()).not.toBe(begun);
    emulator.stopAllFlows();
    expect(emulator.listFlows()).toEqual([]);
  });
});
