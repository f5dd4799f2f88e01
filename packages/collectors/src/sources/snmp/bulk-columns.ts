import snmp, { type Session, type Varbind } from 'net-snmp';

/** endOfMibView: the agent has nothing past this OID (RFC 3416). */
const END_OF_MIB_VIEW = 130;

/** What a walk of one table's columns could not read: the agent's answer was wrong, not late. */
export class ColumnWalkError extends Error {}

/**
 * A table's columns walked together: each GetBulk asks for every column still open, `maxRepetitions` rows of each,
 * so a 64-port switch's ifXTable is one request at 65 rather than one walk per column. A column ends where the
 * agent answers past it (the next column's OIDs, or endOfMibView). Values by column, then by row index.
 */
export function walkColumns(
  session: Session,
  columnOids: readonly string[],
  maxRepetitions: number,
  failure: (error: Error) => Error,
): Promise<Map<string, unknown>[]> {
  const values = columnOids.map(() => new Map<string, unknown>());
  const next = [...columnOids];
  let open = columnOids.map((_, c) => c);
  return new Promise((resolve, reject) => {
    const ask = () => {
      session.getBulk(
        open.map((c) => next[c] as string),
        0,
        maxRepetitions,
        (error, varbinds) => {
          if (error) {
            reject(failure(error));
            return;
          }
          const still: number[] = [];
          let progressed = false;
          for (const [k, c] of open.entries()) {
            const prefix = `${columnOids[c]}.`;
            const rows = (varbinds[k] ?? []) as unknown as Varbind[];
            let ended = false;
            for (const vb of rows) {
              if (vb.type === END_OF_MIB_VIEW || !vb.oid.startsWith(prefix)) {
                ended = true;
                break;
              }
              if (snmp.isVarbindError(vb)) {
                reject(new ColumnWalkError(`${vb.oid}: ${snmp.varbindError(vb)}`));
                return;
              }
              (values[c] as Map<string, unknown>).set(vb.oid.slice(prefix.length), vb.value);
              next[c] = vb.oid;
              progressed = true;
            }
            if (!ended) still.push(c);
          }
          // An answer cut short to fit carries fewer rows: the open columns go on from where it stopped.
          if (still.length > 0 && !progressed) {
            reject(
              new ColumnWalkError(`${columnOids[still[0] as number]}: the agent's answer moved no column on`),
            );
            return;
          }
          open = still;
          if (open.length === 0) resolve(values);
          else ask();
        },
      );
    };
    if (open.length === 0) resolve(values);
    else ask();
  });
}
