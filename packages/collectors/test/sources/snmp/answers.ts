import type { AgentAnswer, SnmpTable } from '../../../src/sources/snmp/snmp-tables.ts';

/** One interface of a made-up agent answer, with net-snmp's value types (OCTET STRING and Counter64 as Buffers). */
export interface InterfaceSpec {
  ifIndex: number;
  name: string;
  type?: number;
  up?: boolean;
  speedMbps?: number;
  outOctets?: bigint;
  inOctets?: bigint;
}

export interface NeighbourSpec {
  localPortNum: number;
  sysName: string;
  portId: string;
  portIdSubtype?: number;
}

/** A Counter64 as net-snmp decodes it: big-endian bytes, leading zero bytes dropped. */
export function counter64Buffer(value: bigint): Buffer {
  const hex = value.toString(16);
  const bytes = Buffer.from(hex.length % 2 ? `0${hex}` : hex, 'hex');
  const first = bytes.findIndex((b) => b !== 0);
  return first === -1 ? Buffer.alloc(0) : bytes.subarray(first);
}

/** An agent's answer as net-snmp's tableColumns and get give it. */
export function agentAnswer(spec: {
  sysName: string;
  upTimeTicks: number;
  chassisMac?: string;
  interfaces: InterfaceSpec[];
  localPorts?: Record<number, string>;
  neighbours?: NeighbourSpec[];
}): AgentAnswer {
  const ifTable: SnmpTable = {};
  const ifXTable: SnmpTable = {};
  for (const i of spec.interfaces) {
    ifTable[i.ifIndex] = {
      '2': Buffer.from(i.name),
      '3': i.type ?? 6,
      '8': i.up === false ? 2 : 1,
      '13': 0,
      '14': 0,
      '19': 0,
      '20': 0,
    };
    ifXTable[i.ifIndex] = {
      '1': Buffer.from(i.name),
      '6': counter64Buffer(i.inOctets ?? 0n),
      '7': counter64Buffer(0n),
      '10': counter64Buffer(i.outOctets ?? 0n),
      '11': counter64Buffer(0n),
      '15': i.speedMbps ?? 100_000,
      '18': Buffer.alloc(0),
    };
  }
  const lldpLocPortTable: SnmpTable = {};
  for (const [num, id] of Object.entries(spec.localPorts ?? {})) {
    lldpLocPortTable[num] = { '2': 5, '3': Buffer.from(id), '4': Buffer.alloc(0) };
  }
  const lldpRemTable: SnmpTable = {};
  (spec.neighbours ?? []).forEach((n, k) => {
    lldpRemTable[`0.${n.localPortNum}.${k + 1}`] = {
      '6': n.portIdSubtype ?? 5,
      '7': n.portIdSubtype === 3 ? Buffer.from(n.portId.replaceAll(':', ''), 'hex') : Buffer.from(n.portId),
      '8': Buffer.alloc(0),
      '9': Buffer.from(n.sysName),
    };
  });
  return {
    upTimeTicks: spec.upTimeTicks,
    sysName: Buffer.from(spec.sysName),
    lldpLocChassisId: spec.chassisMac ? Buffer.from(spec.chassisMac.replaceAll(':', ''), 'hex') : null,
    lldpLocSysName: Buffer.from(spec.sysName),
    ifTable,
    ifXTable,
    lldpLocPortTable,
    lldpRemTable,
  };
}
