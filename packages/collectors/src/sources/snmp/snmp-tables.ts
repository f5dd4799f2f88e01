/** The OIDs this source reads, and the pure decoding of what an agent answered into one switch's reading. */
import type { OpticReading } from '@fabscope/contracts/optics';
import { type EntityTables, opticsByInterface } from './entity-sensors.ts';
import { macText, octetText, type SnmpTable } from './snmp-values.ts';

export { octetText, type SnmpTable } from './snmp-values.ts';

export const OID = {
  sysUpTime: '1.3.6.1.2.1.1.3.0',
  sysName: '1.3.6.1.2.1.1.5.0',
  lldpLocChassisId: '1.0.8802.1.1.2.1.3.2.0',
  lldpLocSysName: '1.0.8802.1.1.2.1.3.3.0',
  ifTable: '1.3.6.1.2.1.2.2',
  ifXTable: '1.3.6.1.2.1.31.1.1',
  lldpLocPortTable: '1.0.8802.1.1.2.1.3.7',
  lldpRemTable: '1.0.8802.1.1.2.1.4.1',
} as const;

/** ifTable: ifDescr, ifType, ifOperStatus, ifInDiscards, ifInErrors, ifOutDiscards, ifOutErrors. */
export const IF_COLUMNS = [2, 3, 8, 13, 14, 19, 20];
/** ifXTable: ifName, ifHCInOctets, ifHCInUcastPkts, ifHCOutOctets, ifHCOutUcastPkts, ifHighSpeed, ifAlias. */
export const IFX_COLUMNS = [1, 6, 7, 10, 11, 15, 18];
/** lldpLocPortTable: lldpLocPortIdSubtype, lldpLocPortId, lldpLocPortDesc. */
export const LLDP_LOC_COLUMNS = [2, 3, 4];
/** lldpRemTable: lldpRemPortIdSubtype, lldpRemPortId, lldpRemPortDesc, lldpRemSysName. */
export const LLDP_REM_COLUMNS = [6, 7, 8, 9];

/** ifType values of Ethernet ports (ethernetCsmacd, fastEther, gigabitEthernet): LAGs, VLANs and loopbacks are not cables. */
const ETHERNET_IF_TYPES = new Set([6, 62, 117]);
/** LLDP port-id subtype macAddress(3): printed as a MAC, the other subtypes as text. */
const PORT_ID_MAC = 3;

/** What one agent answered in one sweep, as the walk returns it. */
export interface AgentAnswer {
  upTimeTicks: unknown;
  sysName: unknown;
  lldpLocChassisId: unknown;
  lldpLocSysName: unknown;
  ifTable: SnmpTable;
  ifXTable: SnmpTable;
  lldpLocPortTable: SnmpTable;
  lldpRemTable: SnmpTable;
  /** IEEE8021-PFC-MIB and ARISTA-QOS-MIB ECN rows (snmp-congestion.ts); absent when not walked. */
  congestion?: [SnmpTable | undefined, SnmpTable | undefined];
  /** ENTITY-MIB and ENTITY-SENSOR-MIB rows (entity-sensors.ts), read by full walks only; absent when not walked. */
  entity?: EntityTables;
}

/** One Ethernet interface; a counter the agent did not give is null. */
export interface SnmpInterface {
  ifIndex: number;
  name: string;
  descr: string;
  alias: string;
  speedMbps: number | null;
  operUp: boolean;
  inOctets: bigint | null;
  outOctets: bigint | null;
  inUcastPkts: bigint | null;
  outUcastPkts: bigint | null;
  inErrors: number | null;
  outErrors: number | null;
  inDiscards: number | null;
  outDiscards: number | null;
  /** The transceiver's readings, where ENTITY-SENSOR-MIB has sensors under the port. */
  optics?: OpticReading[];
}

/** One LLDP neighbour seen on a local port. */
export interface LldpNeighbour {
  /** lldpRemLocalPortNum: the key of lldpLocPortTable. */
  localPortNum: number;
  /** The local interface's ifName, when the local port could be matched to one. */
  localIfName: string | null;
  sysName: string;
  portId: string;
  portDesc: string;
}

export interface SwitchReading {
  name: string;
  chassisId: string;
  upTimeTicks: number;
  interfaces: SnmpInterface[];
  neighbours: LldpNeighbour[];
  /** The PFC and ECN tables as walked, decoded with the ports (snmp-congestion.ts). */
  congestion?: AgentAnswer['congestion'];
}

/** A Counter64 as net-snmp gives it (big-endian bytes, leading zeros dropped); null when absent. */
export function counter64(value: unknown): bigint | null {
  if (typeof value === 'bigint') return value;
  if (typeof value === 'number' && Number.isInteger(value) && value >= 0) return BigInt(value);
  if (!Buffer.isBuffer(value) || value.length > 8) return null;
  return value.length === 0 ? 0n : BigInt(`0x${value.toString('hex')}`);
}

function integer(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

/** The agent's answer as a switch; throws when it lacks what a reading needs (the reason reported). */
export function decodeAnswer(answer: AgentAnswer): SwitchReading {
  const upTimeTicks = integer(answer.upTimeTicks);
  if (upTimeTicks === null) throw new Error('no sysUpTime in the answer');
  if (Object.keys(answer.ifXTable).length === 0)
    throw new Error('no ifXTable (64-bit counters) in the answer');
  const interfaces: SnmpInterface[] = [];
  for (const [index, row] of Object.entries(answer.ifTable)) {
    if (!ETHERNET_IF_TYPES.has(integer(row['3']) ?? -1)) continue;
    const x = answer.ifXTable[index] ?? {};
    const speed = integer(x['15']);
    interfaces.push({
      ifIndex: Number(index),
      name: octetText(x['1']) || octetText(row['2']),
      descr: octetText(row['2']),
      alias: octetText(x['18']),
      speedMbps: speed !== null && speed > 0 ? speed : null,
      operUp: integer(row['8']) === 1,
      inOctets: counter64(x['6']),
      outOctets: counter64(x['10']),
      inUcastPkts: counter64(x['7']),
      outUcastPkts: counter64(x['11']),
      inErrors: integer(row['14']),
      outErrors: integer(row['20']),
      inDiscards: integer(row['13']),
      outDiscards: integer(row['19']),
    });
  }
  interfaces.sort((a, b) => a.ifIndex - b.ifIndex);
  if (answer.entity) {
    const optics = opticsByInterface(answer.entity, interfaces);
    for (const i of interfaces) {
      const readings = optics.get(i.ifIndex);
      if (readings) i.optics = readings;
    }
  }
  const chassisId = octetText(answer.lldpLocChassisId);
  return {
    name: octetText(answer.lldpLocSysName) || octetText(answer.sysName),
    chassisId,
    upTimeTicks,
    interfaces,
    neighbours: neighboursOf(answer, interfaces),
    ...(answer.congestion ? { congestion: answer.congestion } : {}),
  };
}

/** An interface a port id names: by ifName, ifDescr or ifAlias. */
export function interfaceNamed(interfaces: readonly SnmpInterface[], id: string): SnmpInterface | undefined {
  if (id === '') return undefined;
  return (
    interfaces.find((i) => i.name === id) ??
    interfaces.find((i) => i.descr === id) ??
    interfaces.find((i) => i.alias === id)
  );
}

function neighboursOf(answer: AgentAnswer, interfaces: SnmpInterface[]): LldpNeighbour[] {
  const neighbours: LldpNeighbour[] = [];
  for (const [index, row] of Object.entries(answer.lldpRemTable)) {
    // lldpRemTable's index: lldpRemTimeMark.lldpRemLocalPortNum.lldpRemIndex
    const localPortNum = Number(index.split('.')[1]);
    const local = answer.lldpLocPortTable[String(localPortNum)] ?? {};
    const localIf =
      interfaceNamed(interfaces, octetText(local['3'])) ??
      interfaceNamed(interfaces, octetText(local['4'])) ??
      interfaces.find((i) => i.ifIndex === localPortNum);
    const portIdRaw = row['7'];
    neighbours.push({
      localPortNum,
      localIfName: localIf?.name ?? null,
      sysName: octetText(row['9']),
      portId:
        integer(row['6']) === PORT_ID_MAC && Buffer.isBuffer(portIdRaw)
          ? macText(portIdRaw)
          : octetText(portIdRaw),
      portDesc: octetText(row['8']),
    });
  }
  return neighbours.sort((a, b) => a.localPortNum - b.localPortNum || a.sysName.localeCompare(b.sysName));
}
