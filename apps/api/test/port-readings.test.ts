import { buildScenario } from '@fabscope/topology';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { frameOf } from '../src/lib/frame-from-rates.ts';
import { LinkIndex } from '../src/lib/link-index.ts';
import { PortReadings } from '../src/store/port-readings.ts';
import { COUNTER_SEEN, PHYSICAL_STATE, RATE, STAGED, WAIT_TICK } from '../src/store/scrape-staging.ts';
import { sameErrorObjects } from '../src/store/slot-ports.ts';

/**
 * Port `key` read at `timeMs` with its transmit-bytes counter at `bytes` (field 0), and its first
 * error counter at `errors` when given (an error reading).
 */
function read(readings: PortReadings, key: string, timeMs: number, bytes: number, errors?: number): void {
  const slot = readings.slotOf(key);
  readings.stagedValue.fill(Number.NaN, slot * STAGED, (slot + 1) * STAGED);
  readings.stagedValue[slot * STAGED] = bytes;
  // The error fields follow the five the ring keeps (port-readings.ts).
  if (errors !== undefined) readings.stagedValue[slot * STAGED + 5] = errors;
  readings.stagedValue[slot * STAGED + COUNTER_SEEN] = 1;
  readings.commit(slot, timeMs);
}

/** A scrape: the ports read, by name; each scrape is 1 s after the one before. */
const scrapes = fc.array(fc.uniqueArray(fc.integer({ min: 0, max: 30 }), { maxLength: 12 }), {
  minLength: 1,
  maxLength: 12,
});

describe("the embedded store's port readings", () => {
  it('answer, per scrape, the ports read within the staleness limit, as a map that later scrapes leave as it was', () => {
    fc.assert(
      fc.property(scrapes, fc.integer({ min: 500, max: 4000 }), (sequence, staleAfterMs) => {
        const readings = new PortReadings(4);
        const lastRead = new Map<string, number>();
        const answers: { ports: ReadonlyMap<string, unknown>; expected: Map<string, unknown> }[] = [];
        sequence.forEach((ports, s) => {
          const timeMs = 1000 * (s + 1);
          for (const p of ports) {
            read(readings, `port${p}`, timeMs, 1000 * timeMs);
            lastRead.set(`port${p}`, timeMs);
          }
          const { ports: answer, newestMs } = readings.rates(timeMs, staleAfterMs, 10_000);
          expect(newestMs).toBe(
            lastRead.size === 0 ? Number.NEGATIVE_INFINITY : Math.max(...lastRead.values()),
          );
          const fresh = [...lastRead].filter(([, t]) => timeMs - t <= staleAfterMs).map(([key]) => key);
          expect(new Set(answer.keys())).toEqual(new Set(fresh));
          expect(answer.size).toBe(fresh.length);
          for (let p = 0; p <= 31; p++) expect(answer.has(`port${p}`)).toBe(fresh.includes(`port${p}`));
          answers.push({ ports: answer, expected: new Map(answer) });
        });
        // Every answer is still what it was when made, ports added and rates read since.
        for (const { ports, expected } of answers) {
          expect(new Map(ports)).toEqual(expected);
          expect(ports.size).toBe(expected.size);
          for (const [key, rates] of expected) expect(ports.get(key)).toEqual(rates);
        }
      }),
      { numRuns: 200 },
    );
  });

  it('rates a port from its readings in the window, the same in slices as at once', async () => {
    const readings = new PortReadings(4);
    read(readings, 'a', 1000, 0);
    read(readings, 'a', 2000, 4000);
    read(readings, 'b', 2000, 7);
    const atOnce = readings.rates(2000, 5000, 10_000);
    const sliced = await readings.ratesSliced(2000, 5000, 10_000);
    expect(atOnce.ports.get('a')?.transmitBytesPerSecond).toBe(4000);
    // One reading: no rate yet (unknown, not 0).
    expect(atOnce.ports.get('b')?.transmitBytesPerSecond).toBeNull();
    expect(new Map(sliced.ports)).toEqual(new Map(atOnce.ports));
    expect([...atOnce.ports.values()]).toHaveLength(2);
    const seen: string[] = [];
    atOnce.ports.forEach((_, key) => {
      seen.push(key);
    });
    expect(seen).toEqual(['a', 'b']);
  });

  it('never rate across a gap: readings farther apart than the staleness limit give no rate, whatever the window', () => {
    // Readings every second at 1 GB/s, with pauses of random length: a rate is known only when the newest two readings
    // are within the limit, and it is then the true one (the window stops at the gap, never averaging over it).
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 1, max: 40 }), { minLength: 2, maxLength: 30 }),
        fc.integer({ min: 1500, max: 10_000 }),
        fc.integer({ min: 1000, max: 8000 }),
        (steps, staleAfterMs, windowMs) => {
          const readings = new PortReadings(8);
          let timeMs = 0;
          let bytes = 0;
          read(readings, 'a', timeMs, bytes);
          for (const seconds of steps) {
            const before = timeMs;
            timeMs += seconds * 1000;
            // The traffic during a pause is other than before and after it: an average over the gap would show.
            bytes += seconds * (seconds * 1000 > staleAfterMs ? 3e9 : 1e9);
            read(readings, 'a', timeMs, bytes);
            const rate = readings
              .rates(timeMs, staleAfterMs, windowMs)
              .ports.get('a')?.transmitBytesPerSecond;
            if (timeMs - before > staleAfterMs) expect(rate).toBeNull();
            else expect(rate).toBe(1e9);
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('give error rates only between two error readings within the error staleness limit', () => {
    const readings = new PortReadings(4);
    read(readings, 'a', 1000, 0, 10);
    read(readings, 'a', 2000, 0, 20);
    expect(readings.rates(2000, 3500, 2000).ports.get('a')?.errors?.symbolErrors).toBe(10);
    // 30 s without a reading, then one: the 40 errors since are of an unknown time, not 1.33/s.
    read(readings, 'a', 32_000, 0, 60);
    expect(readings.rates(32_000, 3500, 2000).ports.get('a')?.errors?.symbolErrors).toBeUndefined();
    read(readings, 'a', 33_000, 0, 61);
    expect(readings.rates(33_000, 3500, 2000).ports.get('a')?.errors?.symbolErrors).toBe(1);
  });

  it('read a step no link could carry (a packet or XmitWait counter stepped by 2^60) as a gap, never a figure', () => {
    const readings = new PortReadings(4);
    const slot = readings.slotOf('a');
    /** Packets and XmitWait at `timeMs`, on a 100 Gb/s port with 1 µs ticks (with the rate or without). */
    const stage = (timeMs: number, packets: number, wait: number, withRate: boolean) => {
      const at = slot * STAGED;
      readings.stagedValue.fill(Number.NaN, at, at + STAGED);
      readings.stagedValue[at + 2] = packets;
      readings.stagedValue[at + 4] = wait;
      if (withRate) readings.stagedValue[at + RATE] = 12.5e9;
      readings.stagedValue[at + WAIT_TICK] = 1e-6;
      readings.stagedValue[at + COUNTER_SEEN] = 1;
      readings.commit(slot, timeMs);
    };
    const at = (timeMs: number) => readings.rates(timeMs, 3500, 1000).ports.get('a');
    stage(1000, 0, 0, true);
    stage(2000, 1e8, 5e5, true);
    expect(at(2000)).toMatchObject({ transmitPacketsPerSecond: 1e8, transmitWaitTicksPerSecond: 5e5 });
    stage(3000, 1e8 + 2 ** 60, 5e5 + 2 ** 60, true);
    expect(at(3000)).toMatchObject({ transmitPacketsPerSecond: null, transmitWaitTicksPerSecond: null });
    // Without the link's rate, no link's bound still holds (6.1e18 packets/s was read once).
    stage(4000, 2 ** 61, 1e6, false);
    stage(5000, 2 ** 61 + 2 ** 60, 1.1e6, false);
    expect(at(5000)).toMatchObject({ transmitPacketsPerSecond: null, transmitWaitTicksPerSecond: 1e5 });
  });

  it('say whether two answers hold the same error objects, slot by slot', () => {
    const readings = new PortReadings(4);
    // Two error readings: a rate.
    for (const t of [500, 1000]) {
      read(readings, 'a', t, 0, 0);
      read(readings, 'b', t, 0, 0);
    }
    const first = readings.rates(1000, 5000, 10_000).ports;
    read(readings, 'a', 2000, 10);
    read(readings, 'b', 2000, 10);
    // Data only: every port's error rates are the same objects again.
    const second = readings.rates(2000, 5000, 10_000).ports;
    expect(second.get('a')?.errors).toBeDefined();
    expect(sameErrorObjects(first, second)).toBe(true);
    // A new error reading of one port.
    read(readings, 'a', 3000, 20, 5);
    read(readings, 'b', 3000, 20);
    const third = readings.rates(3000, 5000, 10_000).ports;
    expect(sameErrorObjects(second, third)).toBe(false);
    // A port without a fresh reading any more.
    read(readings, 'a', 6000, 30);
    const fourth = readings.rates(6000, 2500, 10_000).ports;
    expect(fourth.has('b')).toBe(false);
    expect(sameErrorObjects(third, fourth)).toBe(false);
    // Another store's answers, or plain maps: not said here.
    expect(sameErrorObjects(new PortReadings(4).rates(0, 1, 1).ports, first)).toBe(false);
    expect(sameErrorObjects(new Map(first), first)).toBeUndefined();
  });

  it('make the frame the same ports as a Map make it: the frame reads the columns by slot', () => {
    const index = new LinkIndex(buildScenario('ar-demo'));
    const keys = [...new Set(index.channels.flatMap((ch) => [ch.fromKey, ch.toKey]))];
    // Per port: not read, or read twice with these counters (bytes) and error counter.
    const port = fc.option(
      fc.record({
        before: fc.nat({ max: 1e9 }),
        sent: fc.nat({ max: 1e9 }),
        errorsBefore: fc.option(fc.nat({ max: 100 }), { nil: undefined }),
        errors: fc.nat({ max: 100 }),
      }),
      { nil: null },
    );
    fc.assert(
      fc.property(fc.array(port, { minLength: keys.length, maxLength: keys.length }), (ports) => {
        const readings = new PortReadings(4);
        // Ports given slots in another order than the channels'.
        for (const key of [...keys].reverse()) readings.slotOf(key);
        ports.forEach((p, i) => {
          if (p === null) return;
          read(readings, keys[i] as string, 1000, p.before, p.errorsBefore);
          read(readings, keys[i] as string, 2000, p.before + p.sent, p.errors);
        });
        const answer = readings.rates(2000, 5000, 10_000).ports;
        const snapshot = { timeMs: 2000, ok: true, lastSampleAgeSeconds: 0 };
        const columns = frameOf(index, { ...snapshot, ports: answer });
        const objects = frameOf(index, { ...snapshot, ports: new Map(answer) });
        expect({ ...columns, ports: null }).toEqual({ ...objects, ports: null });
      }),
      { numRuns: 100 },
    );
  });
});

describe("the embedded store's port totals", () => {
  it('give each counter as last read (the newest reading, the newest error reading), unread ones absent', () => {
    const readings = new PortReadings(4);
    expect(readings.latest('edge1:4')).toBeNull();
    read(readings, 'edge1:4', 1000, 5_000, 2);
    read(readings, 'edge1:4', 2000, 9_000);
    read(readings, 'edge1:4', 3000, 12_000, 7);
    const totals = readings.latest('edge1:4');
    expect(totals).toEqual({ timeMs: 3000, values: { transmitBytes: 12_000, symbolErrors: 7 } });
    // Only what was read: never a 0 for a counter the port did not report.
    expect(totals?.values.receiveBytes).toBeUndefined();
  });

  it("keep the port's physical state as last read, without counters too, and leave out one read before `since`", () => {
    const readings = new PortReadings(4);
    read(readings, 'edge1:4', 1000, 5_000);
    expect(readings.latest('edge1:4')?.physicalState).toBeUndefined();
    const slot = readings.slotOf('edge1:4');
    readings.stagedValue.fill(Number.NaN, slot * STAGED, (slot + 1) * STAGED);
    readings.stagedValue[slot * STAGED + PHYSICAL_STATE] = 2;
    readings.commit(slot, 2000);
    expect(readings.latest('edge1:4')).toEqual({
      timeMs: 1000,
      values: { transmitBytes: 5_000 },
      physicalState: { code: 2, timeMs: 2000 },
    });
    expect(readings.latest('edge1:4', 2001)?.physicalState).toBeUndefined();
    const bare = readings.slotOf('core1:1');
    readings.stagedValue.fill(Number.NaN, bare * STAGED, (bare + 1) * STAGED);
    readings.stagedValue[bare * STAGED + PHYSICAL_STATE] = 5;
    readings.commit(bare, 3000);
    expect(readings.latest('core1:1')).toEqual({
      timeMs: 3000,
      values: {},
      physicalState: { code: 5, timeMs: 3000 },
    });
  });
});
