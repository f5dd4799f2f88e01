import snmp, { type Session } from 'net-snmp';
import { mapBounded } from '../run-tool.ts';
import { walkColumns } from './bulk-columns.ts';
import { ENTITY_TABLES, type EntityTables } from './entity-sensors.ts';
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
  /** Rows of each column per GetBulk: a 64-port switch's ifXTable, its columns together, in two requests at 40. */
  maxRepetitions: number;
  /** Requests one agent is sent at once: a switch's agent runs on a small control-plane CPU. */
  inFlight: number;
}

/** What one walk reads: every table (discovery), or only the columns that move between sweeps. */
export type WalkScope = 'full' | 'counters';
/** ifTable's moving columns: ifOperStatus, ifInDiscards, ifInErrors, ifOutDiscards, ifOutErrors. */
export const IF_MOVING_COLUMNS = [8, 13, 14, 19, 20];
/** ifXTable's moving columns: ifHCInOctets, ifHCInUcastPkts, ifHCOutOctets, ifHCOutUcastPkts. */
export const IFX_MOVING_COLUMNS = [6, 7, 10, 11];

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

/**
 * Tables walked side by side, at most `inFlight` requests at once for the whole agent, each table's columns
 * together (bulk-columns.ts); each table's rows by index, values by column number.
 */
export async function tables(
  session: Session,
  specs: readonly { oid: string; columns: readonly number[] }[],
  options: AgentWalkOptions,
): Promise<SnmpTable[]> {
  const walked = await mapBounded([...specs], options.inFlight, (t) =>
    walkColumns(
      session,
      t.columns.map((c) => `${t.oid}.1.${c}`),
      options.maxRepetitions,
      failure,
    ),
  );
  return specs.map((t, k) => {
    const rows: SnmpTable = {};
    t.columns.forEach((c, n) => {
      for (const [index, value] of (walked[k] as Map<string, unknown>[])[n] as Map<string, unknown>) {
        const row = rows[index] ?? {};
        row[String(c)] = value;
        rows[index] = row;
      }
    });
    return rows;
  });
}

/** The scalars and tables a walk of `scope` reads. */
function walkPlan(scope: WalkScope) {
  if (scope === 'counters')
    return {
      scalars: [OID.sysUpTime],
      tables: [
        { oid: OID.ifTable, columns: IF_MOVING_COLUMNS },
        { oid: OID.ifXTable, columns: IFX_MOVING_COLUMNS },
        ...CONGESTION_TABLES,
      ],
      lldp: false,
    };
  return {
    scalars: [OID.sysUpTime, OID.sysName, OID.lldpLocChassisId, OID.lldpLocSysName],
    tables: [
      { oid: OID.ifTable, columns: IF_COLUMNS },
      { oid: OID.ifXTable, columns: IFX_COLUMNS },
      { oid: OID.lldpLocPortTable, columns: LLDP_LOC_COLUMNS },
      { oid: OID.lldpRemTable, columns: LLDP_REM_COLUMNS },
      ...CONGESTION_TABLES,
      // Optics change slowly: their sensors are read with the names and neighbours, not every sweep.
      ...ENTITY_TABLES,
    ],
    lldp: true,
  };
}

/**
 * Walks one agent (GetBulk on v2c and v3): in full, its system scalars, IF-MIB, LLDP-MIB and ENTITY tables; for
 * `counters`, sysUpTime and the moving columns only, the rest of the answer empty.
 */
export async function walkAgent(
  target: SnmpTarget,
  options: AgentWalkOptions,
  signal: AbortSignal,
  scope: WalkScope = 'full',
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
    const plan = walkPlan(scope);
    const [scalars, [ifTable, ifXTable, ...rest]] = await Promise.race([
      Promise.all([getScalars(session, plan.scalars), tables(session, plan.tables, options)]),
      aborted,
    ]);
    const [lldpLocPortTable, lldpRemTable] = plan.lldp ? rest : [];
    const [pfc, ecn] = plan.lldp ? rest.slice(2) : rest;
    const entity = plan.lldp ? rest.slice(2 + CONGESTION_TABLES.length) : [];
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
      ...(entity.length === ENTITY_TABLES.length ? { entity: entity as EntityTables } : {}),
    };
  } finally {
    signal.removeEventListener('abort', onAbort);
    session.close();
  }
}
