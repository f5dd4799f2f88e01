import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PortReadings } from '../src/store/port-readings.ts';
import { COUNTER_SEEN, STAGED } from '../src/store/scrape-staging.ts';

/** Port `key` read at `timeMs` with its transmit-bytes counter at `bytes` (field 0). */
function read(readings: PortReadings, key: string, timeMs: number, bytes: number): void {
  const slot = readings.slotOf(key);
  readings.stagedValue.fill(Number.NaN, slot * STAGED, (slot + 1) * STAGED);
  readings.stagedValue[slot * STAGED] = bytes;
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
          for (const [key, rates] of expected) expect(ports.get(key)).toBe(rates);
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
    atOnce.ports.forEach((_, key) => seen.push(key));
    expect(seen).toEqual(['a', 'b']);
  });
});
