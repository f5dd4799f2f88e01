import snmp, { type Session } from 'net-snmp';
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

function table(session: Session, oid: string, columns: number[], maxRepetitions: number): Promise<SnmpTable> {
  return new Promise((resolve, reject) => {
    session.tableColumns(oid, columns, maxRepetitions, (error, rows) => {
      if (error) reject(failure(error));
      else resolve(rows);
    });
  });
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
  const aborted = new Promise<never>((_, reject) => {
    signal.addEventListener('abort', () => reject(signal.reason), { once: true });
  });
  aborted.catch(() => {});
  try {
    const reps = options.maxRepetitions;
    const [scalars, ifTable, ifXTable, lldpLocPortTable, lldpRemTable] = await Promise.race([
      Promise.all([
        getScalars(session, [OID.sysUpTime, OID.sysName, OID.lldpLocChassisId, OID.lldpLocSysName]),
        table(session, OID.ifTable, IF_COLUMNS, reps),
        table(session, OID.ifXTable, IFX_COLUMNS, reps),
        table(session, OID.lldpLocPortTable, LLDP_LOC_COLUMNS, reps),
        table(session, OID.lldpRemTable, LLDP_REM_COLUMNS, reps),
      ]),
      aborted,
    ]);
    const [upTimeTicks, sysName, lldpLocChassisId, lldpLocSysName] = scalars;
    return {
      upTimeTicks,
      sysName,
      lldpLocChassisId,
      lldpLocSysName,
      ifTable,
      ifXTable,
      lldpLocPortTable,
      lldpRemTable,
    };
  } finally {
    session.close();
  }
}
