import fc from 'fast-check';
import type { Session, Varbind } from 'net-snmp';
import { describe, expect, it } from 'vitest';
import { tables } from '../../../src/sources/snmp/snmp-agent.ts';

const END_OF_MIB_VIEW = 130;

/**
 * An agent holding `rows` rows of every column of the tables asked for, answering GetBulk as RFC 3416 says (each
 * requested OID's next `maxRepetitions` OIDs in the MIB, endOfMibView past its end) after a turn of the event
 * loop; it counts requests in flight and sent.
 */
function fakeSession(rows: number, tableOids: readonly string[], columns: readonly number[][]) {
  const mib: string[] = [];
  tableOids.forEach((t, k) => {
    for (const c of columns[k] ?? []) for (let r = 1; r <= rows; r++) mib.push(`${t}.1.${c}.${r}`);
  });
  const compare = (a: string, b: string) => {
    const x = a.split('.').map(Number);
    const y = b.split('.').map(Number);
    for (let i = 0; i < Math.min(x.length, y.length); i++)
      if (x[i] !== y[i]) return (x[i] as number) - (y[i] as number);
    return x.length - y.length;
  };
  mib.sort(compare);
  let inFlight = 0;
  let most = 0;
  let sent = 0;
  const session = {
    getBulk(
      oids: string[],
      _nonRepeaters: number,
      reps: number,
      cb: (e: Error | null, v: Varbind[][]) => void,
    ) {
      inFlight++;
      sent++;
      most = Math.max(most, inFlight);
      setImmediate(() => {
        const answer = oids.map((oid) => {
          const after = mib.filter((o) => compare(o, oid) > 0).slice(0, reps);
          const vbs: Varbind[] = after.map((o) => ({ oid: o, type: 2, value: Number(o.split('.').at(-1)) }));
          if (vbs.length < reps)
            vbs.push({ oid: vbs.at(-1)?.oid ?? oid, type: END_OF_MIB_VIEW, value: null });
          return vbs;
        });
        inFlight--;
        cb(null, answer);
      });
    },
  } as unknown as Session;
  return { session, most: () => most, sent: () => sent };
}

describe("walking an agent's tables", () => {
  it('never sends one agent more than inFlight requests at once, walks columns together, and joins them into rows', async () => {
    const specs = [
      { oid: '1.3.6.1.2.1.2.2', columns: [2, 3, 8, 13, 14, 19, 20] },
      { oid: '1.0.8802.1.1.2.1.4.1', columns: [6, 7] },
    ];
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 8 }),
        fc.integer({ min: 0, max: 70 }),
        fc.integer({ min: 1, max: 80 }),
        async (inFlight, rows, maxRepetitions) => {
          const { session, most, sent } = fakeSession(
            rows,
            specs.map((s) => s.oid),
            specs.map((s) => s.columns),
          );
          const [ifTable, lldp] = await tables(session, specs, {
            inFlight,
            maxRepetitions,
            timeoutMs: 1000,
            retries: 0,
          });
          // Two tables side by side up to the bound, never past it.
          expect(most()).toBe(Math.min(inFlight, 2));
          // Each table's columns in one request per maxRepetitions rows (and one that sees the end).
          expect(sent()).toBeLessThanOrEqual(2 * (Math.floor(rows / maxRepetitions) + 1));
          expect(Object.keys(ifTable ?? {}).length).toBe(rows);
          expect(Object.keys(lldp ?? {}).length).toBe(rows);
          if (rows > 0)
            expect(ifTable?.['1']).toEqual({ '2': 1, '3': 1, '8': 1, '13': 1, '14': 1, '19': 1, '20': 1 });
          if (rows > 0) expect(lldp?.[String(rows)]).toEqual({ '6': rows, '7': rows });
        },
      ),
      { numRuns: 60 },
    );
  });
});
