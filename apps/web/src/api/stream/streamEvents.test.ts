import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildTierGroups } from '../../lib/tierGroups.ts';
import { summarizeSnapshot } from '../../lib/tierLoad.ts';
import { threeTier } from '../../test/testTopologies.ts';
import type { CompactSnapshot } from '../types.ts';
import { reportOf } from './streamEvents.ts';

const tick = {
  time: '2025-01-01T00:00:00.000Z',
  health: { status: 'ok', store: 'embedded', lastSampleAgeSeconds: 0.4, topologyVersion: 2 },
  summary: {
    time: '2025-01-01T00:00:00.000Z',
    hostTransmitBytesPerSecond: 1e9,
    histogram: { isl: [0, 0, 0, 0, 0, 0, 0, 0, 0, 0], host: [0, 0, 0, 0, 0, 0, 0, 0, 0, 0] },
  },
  links: [],
};

describe('reportOf (what a stream message means, in the worker or on the page)', () => {
  it('a message of the drawn topology is a snapshot', () => {
    const report = reportOf({ view: 'full', version: 2 }, JSON.stringify(tick));
    expect(report.kind).toBe('message');
  });

  it('a message of another topology version asks for that version', () => {
    expect(reportOf({ view: 'full', version: 1 }, JSON.stringify(tick))).toEqual({
      kind: 'topology',
      version: 2,
    });
  });

  it('a message it cannot read says why', () => {
    expect(reportOf({ view: 'full' }, 'not json')).toEqual({
      kind: 'bad',
      message: 'stream message is not JSON',
    });
    expect(reportOf({ view: 'compact', channels: 4 }, JSON.stringify(tick))).toMatchObject({ kind: 'bad' });
  });
});

describe('reportOf with the tier groups (a fabric shown per tier)', () => {
  const topology = threeTier();
  const groups = buildTierGroups(topology);
  const n = topology.links.length * 2;
  const value = fc.oneof(fc.constant(null), fc.double({ min: 0, max: 1.2, noNaN: true }), fc.constant(0.8));
  const column = fc.array(value, { minLength: n, maxLength: n });

  it("a compact message carries the summary the page would make of it, through the worker's postMessage", () => {
    fc.assert(
      fc.property(
        column,
        column,
        fc.option(column, { nil: undefined }),
        fc.uniqueArray(fc.nat(n - 1), { maxLength: 6 }),
        fc.nat(n + 1),
        (utilization, bytesPerSecond, waitFraction, errors, errorsUnknown) => {
          const data = JSON.stringify({
            ...tick,
            links: undefined,
            utilization,
            bytesPerSecond,
            ...(waitFraction ? { waitFraction } : {}),
            errors: errors.map((c) => [c, 1, null]),
            errorsUnknown,
            top: [],
          });
          const inWorker = reportOf({ view: 'compact', channels: n, tiers: groups }, data);
          // What the page receives: a structured clone.
          const received = structuredClone(inWorker);
          const onPage = reportOf({ view: 'compact', channels: n }, data);
          if (received.kind !== 'message' || onPage.kind !== 'message') throw new Error('not a message');
          const snapshot = onPage.snapshot as CompactSnapshot;
          expect(snapshot.tiers).toBeUndefined();
          expect((received.snapshot as CompactSnapshot).tiers).toEqual(summarizeSnapshot(groups, snapshot));
        },
      ),
      { numRuns: 60 },
    );
  });

  it('a full message carries none', () => {
    const report = reportOf({ view: 'full', tiers: groups }, JSON.stringify(tick));
    expect(report.kind === 'message' && 'tiers' in report.snapshot).toBe(false);
  });
});
