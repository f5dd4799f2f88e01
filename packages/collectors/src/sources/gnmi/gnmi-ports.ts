import { naturalCompare } from '@fabscope/contracts/names';
import type { PortSample } from '../../fabric/port-sample.ts';
import { switchGuid } from '../snmp/snmp-ports.ts';
import type { InterfaceReading } from './gnmi-port-table.ts';

function count(value: bigint | undefined): number {
  return value === undefined ? Number.NaN : Number(value);
}

/** A queue counter summed over the port's queues; unknown unless every queue that has the port's queues streams it. */
function queueSum(r: InterfaceReading, leaf: 'ecnMarkedPackets' | 'transmitWait'): number {
  const values = [...r.queues.values()].map((q) => q[leaf]);
  if (values.length === 0 || values.some((v) => v === undefined)) return Number.NaN;
  return Number(values.reduce((a, b) => (a as bigint) + (b as bigint), 0n));
}

/**
 * A switch's interfaces as port samples, numbered 1.. in natural name order (as the SNMP source numbers
 * them in ifIndex order): the same fields the SNMP source fills, and tx-wait as XmitWait ticks of
 * unknown length where a queue streams it. A leaf never streamed is NaN, never 0.
 */
export function gnmiPorts(switchName: string, interfaces: readonly InterfaceReading[]): PortSample[] {
  const nodeGuid = switchGuid({ name: switchName, chassisId: '' });
  const sorted = [...interfaces].sort((a, b) => naturalCompare(a.name, b.name));
  return sorted.map(
    (r, k): PortSample => ({
      nodeGuid,
      nodeName: switchName,
      nodeType: 'switch',
      portNumber: k + 1,
      lid: 0,
      rateBytesPerSecond: r.speedBitsPerSecond === undefined ? Number.NaN : r.speedBitsPerSecond / 8,
      linkUp: r.operStatus === 'UP',
      remote: null,
      transmitBytes: count(r.counters.outOctets),
      receiveBytes: count(r.counters.inOctets),
      transmitPackets: count(r.counters.outUnicastPkts),
      receivePackets: count(r.counters.inUnicastPkts),
      transmitWaitTicks: queueSum(r, 'transmitWait'),
      errors: { receiveErrors: count(r.counters.inErrors), transmitDiscards: count(r.counters.outDiscards) },
    }),
  );
}

/** A port's congestion counters beyond the port sample's (ECN marks, pause frames), NaN where not streamed. */
export interface GnmiCongestion {
  nodeName: string;
  interface: string;
  ecnMarkedPackets: number;
  linkPauseReceived: number;
  linkPauseSent: number;
  /** PFC pause frames by queue name (the platform's priority), where the queue streams them. */
  pfcPauseReceived: Record<string, number>;
  pfcPauseSent: Record<string, number>;
}

export function gnmiCongestion(switchName: string, r: InterfaceReading): GnmiCongestion {
  const byQueue = (leaf: 'pfcPauseReceived' | 'pfcPauseSent') =>
    Object.fromEntries(
      [...r.queues].flatMap(([q, c]) => (c[leaf] === undefined ? [] : [[q, Number(c[leaf])]])),
    );
  return {
    nodeName: switchName,
    interface: r.name,
    ecnMarkedPackets: queueSum(r, 'ecnMarkedPackets'),
    linkPauseReceived: count(r.counters.inPauseFrames),
    linkPauseSent: count(r.counters.outPauseFrames),
    pfcPauseReceived: byQueue('pfcPauseReceived'),
    pfcPauseSent: byQueue('pfcPauseSent'),
  };
}
