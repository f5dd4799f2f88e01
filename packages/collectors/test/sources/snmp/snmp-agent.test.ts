import fc from 'fast-check';
import type { Session, Varbind } from 'net-snmp';
import { describe, expect, it } from 'vitest';
import { tables } from '../../../src/sources/snmp/snmp-agent.ts';

/** A session whose subtree walks answer `rows` rows per column after a turn of the event loop, counting requests in flight. */
function fakeSession(rows: number) {
  let inFlight = 0;
  let most = 0;
  const session = {
    subtree(
      oid: string,
      _reps: number,
      feed: (v: Varbind[]) => boolean | undefined,
      done: (e: Error | null) => void,
    ) {
      inFlight++;
      most = Math.max(most, inFlight);
      setImmediate(() => {
        feed(Array.from({ length: rows }, (_, i) => ({ oid: `${oid}.${i + 1}`, type: 2, value: i + 1 })));
        inFlight--;
        done(null);
      });
    },
  } as unknown as Session;
  return { session, most: () => most };
}

describe("walking an agent's tables", () => {
  it('never sends one agent more than inFlight requests at once, and joins the columns into rows', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 8 }),
        fc.integer({ min: 0, max: 5 }),
        async (inFlight, rows) => {
          const { session, most } = fakeSession(rows);
          const [ifTable, lldp] = await tables(
            session,
            [
              { oid: '1.3.6.1.2.1.2.2', columns: [2, 3, 8, 13, 14, 19, 20] },
              { oid: '1.0.8802.1.1.2.1.4.1', columns: [6, 7] },
            ],
            { inFlight, maxRepetitions: 40, timeoutMs: 1000, retries: 0 },
          );
          // Side by side up to the bound (nine columns in all), never past it.
          expect(most()).toBe(Math.min(inFlight, 9));
          expect(Object.keys(ifTable ?? {}).length).toBe(rows);
          if (rows > 0)
            expect(ifTable?.['1']).toEqual({ '2': 1, '3': 1, '8': 1, '13': 1, '14': 1, '19': 1, '20': 1 });
          if (rows > 0) expect(lldp?.[String(rows)]).toEqual({ '6': rows, '7': rows });
        },
      ),
      { numRuns: 50 },
    );
  });
});
