import { ERROR_FIELDS, type ErrorRates } from '@fabscope/contracts';
import { buildScenario, CATEGORY_NAMES } from '@fabscope/topology';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compactFrame } from '../src/lib/compact-tick.ts';
import { known, stateAt, statesOf } from '../src/lib/frame.ts';
import { frameOf, frameOfKept } from '../src/lib/frame-from-rates.ts';
import { LinkIndex } from '../src/lib/link-index.ts';
import { channelsOf, type LinkSort, RankedLinks } from '../src/lib/link-order.ts';
import type { DirectionRates, PortRates, RatesSnapshot } from '../src/lib/port-rates.ts';
import { summarizeFrame, summarizeLiveInTurns } from '../src/lib/summary.ts';
import { LinkHistory } from '../src/store/link-history.ts';
import { frameFromStates, linkDirectionStates, summarize } from './oracles/object-path.ts';
import { compactTick, rankObjects } from './oracles/rankings.ts';

// Omni-Path fat tree, and a fabric with an Ethernet side behind an IP router (no XmitWait, no
// categories there) and hosts whose transmit the summary counts.
const indexes = [
  new LinkIndex(buildScenario('ar-demo')),
  new LinkIndex(buildScenario('opa-ethernet-router')),
];

/** A rate as stores give them: unknown, or any finite number (−0 and negatives included). */
const rate = fc.option(fc.double({ noNaN: true, noDefaultInfinity: true }), { nil: null });

const errorRates: fc.Arbitrary<ErrorRates | undefined> = fc.option(
  fc.dictionary(
    fc.constantFrom(...ERROR_FIELDS),
    fc.double({ min: 0, max: 1e6, noNaN: true }),
  ) as fc.Arbitrary<ErrorRates>,
  { nil: undefined },
);

const portRates: fc.Arbitrary<PortRates> = fc
  .record({
    transmitBytesPerSecond: rate,
    receiveBytesPerSecond: rate,
    transmitPacketsPerSecond: rate,
    receivePacketsPerSecond: rate,
    transmitWaitTicksPerSecond: rate,
    transmitWaitTickSeconds: fc.option(fc.constantFrom(6.4e-10, 1e-9, 0, -1), { nil: null }),
    linkUp: fc.option(fc.boolean(), { nil: null }),
    errors: errorRates,
  })
  .map(({ errors, ...rest }) => (errors === undefined ? rest : { ...rest, errors }));

const directionRates: fc.Arbitrary<DirectionRates> = fc.record({
  bytesPerSecond: rate,
  packetsPerSecond: rate,
  transmitWaitFraction: fc.option(fc.double({ min: 0, max: 1, noNaN: true }), { nil: null }),
});

/** Some of the index's ports with arbitrary rates (the rest absent: stale), maybe whole directions. */
function snapshots(index: LinkIndex): fc.Arbitrary<RatesSnapshot> {
  const keys = [...new Set(index.channels.flatMap((c) => [c.fromKey, c.toKey]))];
  return fc
    .record({
      ports: fc.array(fc.option(portRates, { nil: undefined }), {
        minLength: keys.length,
        maxLength: keys.length,
      }),
      directions: fc.option(
        fc.array(fc.option(directionRates, { nil: undefined }), {
          minLength: keys.length,
          maxLength: keys.length,
        }),
        { nil: undefined },
      ),
      age: fc.option(fc.double({ min: 0, max: 100, noNaN: true }), { nil: null }),
    })
    .map(({ ports, directions, age }) => {
      const snapshot: RatesSnapshot = {
        timeMs: 1_764_000_000_000,
        ok: true,
        lastSampleAgeSeconds: age,
        ports: new Map(keys.flatMap((k, i) => (ports[i] ? [[k, ports[i]] as const] : []))),
      };
      if (directions)
        snapshot.directions = new Map(
          keys.flatMap((k, i) => (directions[i] ? [[k, directions[i]] as const] : [])),
        );
      return snapshot;
    });
}

describe('the frame: columns per instant in channel order', () => {
  it("is the same whether the ends' error rates are objects seen before (kept per channel) or new", () => {
    const fabrics = [buildScenario('ar-demo'), buildScenario('opa-ethernet-router')];
    for (const fabric of fabrics) {
      const index = new LinkIndex(fabric);
      fc.assert(
        fc.property(snapshots(index), snapshots(index), fc.array(fc.boolean()), (first, second, reuse) => {
          // The second tick gives some ports the first's error-rates objects again, as a store
          // does while a port's error reading is unchanged; others new ones or none.
          let i = 0;
          const ports = new Map(
            [...second.ports].map(([key, rates]) => {
              const before = first.ports.get(key)?.errors;
              const again = reuse[i++ % Math.max(1, reuse.length)] === true && before !== undefined;
              return [key, again ? { ...rates, errors: before } : rates] as const;
            }),
          );
          const next = { ...second, ports };
          frameOf(index, first);
          // A fresh index of the same fabric has kept nothing.
          expect(frameOf(index, next)).toEqual({ ...frameOf(new LinkIndex(fabric), next), index });
        }),
        { numRuns: 40 },
      );
    }
  });

  it('of what a store kept (frameOfKept) equals frameOf over the snapshot of whole directions it stands for', () => {
    for (const index of indexes) {
      fc.assert(
        fc.property(snapshots(index), (snapshot) => {
          // A source of whole directions (the history's past instants are read as one).
          const whole = { ...snapshot, directions: snapshot.directions ?? new Map() };
          const frame = frameOf(index, whole);
          const kept = frameOfKept(
            index,
            frame.timeMs,
            {
              bytesPerSecond: frame.bytesPerSecond,
              packetsPerSecond: frame.packetsPerSecond,
              transmitWaitFraction: frame.transmitWaitFraction,
              linkUp: frame.linkUp,
            },
            whole.ports,
          );
          expect({ ...kept, lastSampleAgeSeconds: frame.lastSampleAgeSeconds }).toEqual(frame);
        }),
        { numRuns: 60 },
      );
    }
  });

  it("holds linkDirectionStates' fields for any snapshot (nulls as NaN, link state as 1/0/−1)", () => {
    for (const index of indexes) {
      fc.assert(
        fc.property(snapshots(index), (snapshot) => {
          const frame = frameOf(index, snapshot);
          const states = linkDirectionStates(index, snapshot);
          states.forEach((s, c) => {
            expect(known(frame.bytesPerSecond[c] as number)).toEqual(s.bytesPerSecond);
            expect(known(frame.packetsPerSecond[c] as number)).toEqual(s.packetsPerSecond);
            expect(known(frame.transmitWaitTicksPerSecond[c] as number)).toEqual(
              s.transmitWaitTicksPerSecond,
            );
            expect(known(frame.transmitWaitFraction[c] as number)).toEqual(s.transmitWaitFraction);
            expect(known(frame.utilization[c] as number)).toEqual(s.utilization);
            expect(frame.linkUp[c]).toBe(s.linkUp === null ? -1 : s.linkUp ? 1 : 0);
            expect(known(frame.errorsPerSecond[c] as number)).toEqual(s.errorsPerSecond);
            for (const name of CATEGORY_NAMES)
              expect(known(frame.categories[name][c] as number)).toEqual(s.categories[name]);
            // The object made from the frame is the one made from the snapshot, errors and all.
            expect(stateAt(frame, c)).toEqual(s);
          });
          expect(statesOf(frame)).toEqual(states);
        }),
        { numRuns: 60 },
      );
    }
  });

  it('summarizes as summarize does over the objects, live (categories, ports without data) or not', () => {
    for (const index of indexes) {
      fc.assert(
        fc.property(snapshots(index), (snapshot) => {
          const frame = frameOf(index, snapshot);
          const states = linkDirectionStates(index, snapshot);
          expect(summarizeFrame(frame, true)).toEqual(summarize(index, states, snapshot.timeMs, snapshot));
          expect(summarizeFrame(frame, false)).toEqual(summarize(index, states, snapshot.timeMs));
          // What the ports without data and the collection gaps read: the snapshot's ports, by position.
          expect([...frame.portsRead]).toEqual(
            index.portList.map((key) => (snapshot.ports.has(key) ? 1 : 0)),
          );
        }),
        { numRuns: 60 },
      );
    }
  });

  it('is the same frame whether made from the snapshot or from the objects', () => {
    const index = indexes[0] as LinkIndex;
    fc.assert(
      fc.property(snapshots(index), (snapshot) => {
        const frame = frameOf(index, snapshot);
        const again = frameFromStates(
          index,
          linkDirectionStates(index, snapshot),
          snapshot.timeMs,
          snapshot.ports,
        );
        expect({ ...again, lastSampleAgeSeconds: frame.lastSampleAgeSeconds }).toEqual(frame);
      }),
      { numRuns: 30 },
    );
    expect(() => frameFromStates(index, [], 0)).toThrow(/expected \d+ link directions, got 0/);
  });

  it('encodes the compact stream message as compactTick does from the objects, byte for byte', () => {
    for (const index of indexes) {
      fc.assert(
        fc.property(snapshots(index), fc.nat(4), (snapshot, topPerKind) => {
          const frame = frameOf(index, snapshot);
          const tick = { time: 't', health: { status: 'ok' }, summary: summarizeFrame(frame, true) };
          const links = linkDirectionStates(index, snapshot);
          expect(JSON.stringify(compactFrame(tick, frame, topPerKind))).toBe(
            JSON.stringify(compactTick({ ...tick, links }, topPerKind)),
          );
        }),
        { numRuns: 60 },
      );
    }
  });

  it('summarizes live in turns of the loop exactly as at once', async () => {
    for (const index of indexes) {
      await fc.assert(
        fc.asyncProperty(snapshots(index), fc.integer({ min: 0, max: 2e12 }), async (snapshot, timeMs) => {
          const inTurns = await summarizeLiveInTurns(frameOf(index, snapshot), timeMs);
          expect(inTurns).toEqual(summarizeFrame(frameOf(index, snapshot), true, timeMs));
          expect(inTurns.categories).toBeDefined();
        }),
        { numRuns: 40 },
      );
    }
  });

  it('keeps the same error readings whether they were prepared in slices or made on recording', async () => {
    for (const index of indexes) {
      await fc.assert(
        fc.asyncProperty(fc.array(snapshots(index), { minLength: 1, maxLength: 4 }), async (ticks) => {
          const n = index.channels.length;
          const prepared = new LinkHistory(n, 8);
          const plain = new LinkHistory(n, 8);
          let timeMs = 1000;
          // Each snapshot twice: the second time every port gives the same error objects again,
          // as the store does between two error scrapes (the reading before is kept).
          const twice = ticks.flatMap((t) => [t, t]);
          for (const snapshot of twice) {
            const frame = frameOf(index, snapshot);
            const summary = summarizeFrame(frame, false);
            await prepared.prepareReading(frame);
            prepared.recordFrame(timeMs, frame, summary);
            plain.recordFrame(timeMs, frame, summary);
            timeMs += 1000;
          }
          for (let f = 0; f < twice.length; f++)
            expect(prepared.frameColumns(f).errors).toEqual(plain.frameColumns(f).errors);
        }),
        { numRuns: 30 },
      );
    }
  });

  it('ranks /links over its columns as over the objects: every sort, order, kind and page', () => {
    const sorts: LinkSort[] = [
      'utilization',
      'bytesPerSecond',
      'transmitWaitFraction',
      'id',
      ...CATEGORY_NAMES,
    ];
    for (const index of indexes) {
      fc.assert(
        fc.property(
          snapshots(index),
          fc.constantFrom(...sorts),
          fc.constantFrom('asc', 'desc') as fc.Arbitrary<'asc' | 'desc'>,
          fc.constantFrom(undefined, 'isl', 'host') as fc.Arbitrary<'isl' | 'host' | undefined>,
          fc.integer({ min: 1, max: 12 }),
          (snapshot, sort, order, kind, k) => {
            const frame = frameOf(index, snapshot);
            const objects = linkDirectionStates(index, snapshot).filter((l) => !kind || l.kind === kind);
            const ids = kind === 'host' ? new Set(objects.slice(0, 5).map((l) => l.id)) : null;
            const chosen = ids === null ? objects : objects.filter((l) => ids.has(l.id));
            const fromObjects = rankObjects(chosen, sort, order);
            const fromFrame = new RankedLinks(
              index,
              { frame, channels: channelsOf(frame, kind, ids) },
              sort,
              order,
            );
            expect(fromFrame.length).toBe(fromObjects.length);
            expect(fromFrame.slice(0, k)).toEqual(fromObjects.slice(0, k));
            expect(fromFrame.slice(k, 3 * k)).toEqual(fromObjects.slice(k, 3 * k));
          },
        ),
        { numRuns: 60 },
      );
    }
  });

  it('pages of a ranked list, read one after another, are the whole order cut in pieces', () => {
    const index = new LinkIndex(buildScenario('fat-tree-1152'));
    const fabricSnapshots = snapshots(index);
    fc.assert(
      fc.property(
        fabricSnapshots,
        fc.constantFrom<LinkSort>('utilization', 'bytesPerSecond', 'id', 'congestion'),
        fc.constantFrom('asc', 'desc') as fc.Arbitrary<'asc' | 'desc'>,
        fc.array(fc.integer({ min: 1, max: 700 }), { minLength: 1, maxLength: 8 }),
        (snapshot, sort, order, sizes) => {
          const frame = frameOf(index, snapshot);
          const rows = { frame, channels: channelsOf(frame, undefined, null) };
          const whole = new RankedLinks(index, rows, sort, order).slice(0, rows.channels.length);
          const paged = new RankedLinks(index, rows, sort, order);
          let start = 0;
          for (const size of sizes) {
            expect(paged.slice(start, start + size)).toEqual(whole.slice(start, start + size));
            start += size;
          }
        },
      ),
      { numRuns: 6 },
    );
  });
});
