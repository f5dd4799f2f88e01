import snmp, { type Session } from 'net-snmp';
import { mapBounded } from '../run-tool.ts';
import { CONGESTION_TABLES } from './snmp-congestion.ts';
import {
  type AgentAnswer,
  IF_COLUMNS,
  IFX_COLUMNS,
  LLDP_LOC_COLUMNS,
  LLDP_REM_COLUMNS,
  OID,
  type SnmpTable,
} from './snmp-tables.ts';
import type { SnmpTarget } from './snmp-targets.ts';

export interface AgentWalkOptions {
  /** Per request; net-snmp doubles nothing, each retry waits this long again. */
  timeoutMs: number;
  retries: number;
  /** Rows per GetBulk: one ifXTable column of a 64-port switch in two requests at 40. */
  maxRepetitions: number;
  /** Requests one agent is sent at once: a switch's agent runs on a small control-plane CPU. */
  inFlight: number;
}

/** The agent's answer did not come in time, after its retries. */
export class AgentTimeoutError extends Error {}

function openSession(target: SnmpTarget, options: AgentWalkOptions): Session {
  const common = {
    port: target.port,
    retries: options.retries,
    timeout: options.timeoutMs,
    transport: target.host.includes(':') ? 'udp6' : 'udp4',
  };
  const c = target.credentials;
  if (c.version === '2c')
    return snmp.createSession(target.host, c.community, { ...common, version: snmp.Version2c });
  const level = c.priv
    ? snmp.SecurityLevel.authPriv
    : c.auth
      ? snmp.SecurityLevel.authNoPriv
      : snmp.SecurityLevel.noAuthNoPriv;
  return snmp.createV3Session(
    target.host,
    {
      name: c.user,
      level,
      ...(c.auth ? { authProtocol: snmp.AuthProtocols[c.auth.protocol], authKey: c.auth.key } : {}),
      ...(c.priv ? { privProtocol: snmp.PrivProtocols[c.priv.protocol], privKey: c.priv.key } : {}),
    },
    { ...common, version: snmp.Version3, ...(c.context ? { context: c.context } : {}) },
  );
}

function failure(error: Error): Error {
  return error instanceof snmp.RequestTimedOutError ? new AgentTimeoutError(error.message) : error;
}

/** Scalars by OID; one the agent does not have (noSuchObject/noSuchInstance) is null. */
function getScalars(session: Session, oids: string[]): Promise<unknown[]> {
  return new Promise((resolve, reject) => {
    session.get(oids, (error, varbinds) => {
      if (error) reject(failure(error));
      else resolve(varbinds.map((vb) => (snmp.isVarbindError(vb) ? null : vb.value)));
    });
  });
}

/** One column's values by row index (the OID's tail after the column's). */
function column(session: Session, oid: string, maxRepetitions: number): Promise<Map<string, unknown>> {
  const values = new Map<string, unknown>();
  const prefix = `${oid}.`;
  return new Promise((resolve, reject) => {
    let failed: Error | null = null;
    session.subtree(
      oid,
      maxRepetitions,
      (varbinds) => {
        for (const vb of varbinds) {
          if (snmp.isVarbindError(vb)) {
            failed = new Error(`${vb.oid}: ${snmp.varbindError(vb)}`);
            return true;
          }
          if (vb.oid.startsWith(prefix)) values.set(vb.oid.slice(prefix.length), vb.value);
        }
        return undefined;
      },
      (error) => {
        if (error) reject(failure(error));
        else if (failed) reject(failed);
        else resolve(values);
      },
    );
  });
}

/**
 * Tables' columns walked side by side, at most `inFlight` requests at once for the whole agent; each table's
 * rows by index, values by column number.
 */
export async function tables(
  session: Session,
  specs: readonly { oid: string; columns: readonly number[] }[],
  options: AgentWalkOptions,
): Promise<SnmpTable[]> {
  const jobs = specs.flatMap((t, k) => t.columns.map((c) => ({ k, c, oid: `${t.oid}.1.${c}` })));
  const walked = await mapBounded(jobs, options.inFlight, (j) =>
    column(session, j.oid, options.maxRepetitions),
  );
  const result: SnmpTable[] = specs.map(() => ({}));
  jobs.forEach((j, n) => {
    const rows = result[j.k] as SnmpTable;
    for (const [index, value] of walked[n] as Map<string, unknown>) {
      const row = rows[index] ?? {};
      row[String(j.c)] = value;
      rows[index] = row;
    }
  });
  return result;
}

/** Walks one agent's system scalars, IF-MIB and LLDP-MIB tables (GetBulk on v2c and v3). */
export async function walkAgent(
  target: SnmpTarget,
  options: AgentWalkOptions,
  signal: AbortSignal,
): Promise<AgentAnswer> {
  signal.throwIfAborted();
  const session = openSession(target, options);
  // A socket error (unreachable host) is reported by the request that meets it; this keeps it off the process.
  session.on('error', () => {});
  let onAbort = () => {};
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
  });
  aborted.catch(() => {});
  try {
    const [scalars, [ifTable, ifXTable, lldpLocPortTable, lldpRemTable, pfc, ecn]] = await Promise.race([
      Promise.all([
        getScalars(session, [OID.sysUpTime, OID.sysName, OID.lldpLocChassisId, OID.lldpLocSysName]),
        tables(
          session,
          [
            { oid: OID.ifTable, columns: IF_COLUMNS },
            { oid: OID.ifXTable, columns: IFX_COLUMNS },
            { oid: OID.lldpLocPortTable, columns: LLDP_LOC_COLUMNS },
            { oid: OID.lldpRemTable, columns: LLDP_REM_COLUMNS },
            ...CONGESTION_TABLES,
          ],
          options,
        ),
      ]),
      aborted,
    ]);
    const [upTimeTicks, sysName, lldpLocChassisId, lldpLocSysName] = scalars;
    return {
      upTimeTicks,
      sysName,
      lldpLocChassisId,
      lldpLocSysName,
      ifTable: ifTable ?? {},
      ifXTable: ifXTable ?? {},
      lldpLocPortTable: lldpLocPortTable ?? {},
      lldpRemTable: lldpRemTable ?? {},
      congestion: [pfc, ecn],
    };
  } finally {
    signal.removeEventListener('abort', onAbort);
    session.close();
  }
}
