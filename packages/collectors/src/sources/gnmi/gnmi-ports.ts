import { naturalCompare } from '@fabscope/contracts/names';
import type { PortSample } from '../../fabric/port-sample.ts';
import { pauseFrameSeconds } from '../snmp/snmp-congestion.ts';
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

/** PFC pause frames received, summed over the queues that stream them (the lossless ones); NaN where none does. */
function pauseReceived(r: InterfaceReading): number {
  const values = [...r.queues.values()].flatMap((q) =>
    q.pfcPauseReceived === undefined ? [] : [q.pfcPauseReceived],
  );
  return values.length === 0 ? Number.NaN : Number(values.reduce((a, b) => a + b, 0n));
}

/**
 * A port's wait as the SNMP source reads it: tx-wait where the platform streams it (ticks of unknown length), else
 * PFC pause frames received, each a refresh at half the longest pause (snmp-congestion.ts); and its ECN marks
 * as `markFecn` where it has queues.
 */
function congestionOf(r: InterfaceReading): Pick<
  PortSample,
  'transmitWaitTicks' | 'transmitWaitTickSeconds'
> & {
  ecn: { markFecn?: number };
} {
  const ecn = r.queues.size === 0 ? {} : { markFecn: queueSum(r, 'ecnMarkedPackets') };
  const txWait = queueSum(r, 'transmitWait');
  const pause = pauseReceived(r);
  if (!Number.isNaN(txWait) || Number.isNaN(pause)) return { transmitWaitTicks: txWait, ecn };
  const mbps = r.speedBitsPerSecond === undefined ? null : r.speedBitsPerSecond / 1e6;
  return { transmitWaitTicks: pause, transmitWaitTickSeconds: pauseFrameSeconds(mbps), ecn };
}

/** The far end of a cable as an LLDP neighbour names it, when that switch was read too. */
export type FarPort = (neighbour: {
  systemName?: string;
  portId?: string;
  portDescription?: string;
}) => PortSample['remote'];

/** Every switch read's ports by name, so an LLDP neighbour's system-name and port-id find their port number. */
export function farPortsOf(switches: ReadonlyMap<string, readonly InterfaceReading[]>): FarPort {
  const numbers = new Map<string, Map<string, number>>();
  for (const [name, interfaces] of switches) {
    const sorted = [...interfaces].sort((a, b) => naturalCompare(a.name, b.name));
    numbers.set(name, new Map(sorted.map((r, k) => [r.name, k + 1])));
  }
  return (n) => {
    const ports = n.systemName === undefined ? undefined : numbers.get(n.systemName);
    const portNumber =
      ports?.get(n.portId ?? '') ??
      (n.portDescription === undefined ? undefined : ports?.get(n.portDescription));
    if (!ports || portNumber === undefined) return null;
    const nodeName = n.systemName as string;
    return {
      nodeGuid: switchGuid({ name: nodeName, chassisId: '' }),
      nodeName,
      portNumber,
      nodeType: 'switch',
    };
  };
}

/**
 * A switch's interfaces as port samples, numbered 1.. in natural name order (as the SNMP source numbers
 * them in ifIndex order): the same fields the SNMP source fills, the far end from LLDP, the wait from tx-wait or PFC
 * pause and ECN marks as congestionOf says. A leaf never streamed is NaN, never 0.
 */
export function gnmiPorts(
  switchName: string,
  interfaces: readonly InterfaceReading[],
  farPort: FarPort = () => null,
): PortSample[] {
  const nodeGuid = switchGuid({ name: switchName, chassisId: '' });
  const sorted = [...interfaces].sort((a, b) => naturalCompare(a.name, b.name));
  return sorted.map((r, k): PortSample => {
    const { ecn, ...wait } = congestionOf(r);
    return {
      nodeGuid,
      nodeName: switchName,
      nodeType: 'switch',
      portNumber: k + 1,
      lid: 0,
      rateBytesPerSecond: r.speedBitsPerSecond === undefined ? Number.NaN : r.speedBitsPerSecond / 8,
      linkUp: r.operStatus === 'UP',
      // One cable a port: the first neighbour that names a switch read; a hub's second neighbour is not a cable.
      remote: [...r.neighbours.values()].map(farPort).find((far) => far !== null) ?? null,
      transmitBytes: count(r.counters.outOctets),
      receiveBytes: count(r.counters.inOctets),
      transmitPackets: count(r.counters.outUnicastPkts),
      receivePackets: count(r.counters.inUnicastPkts),
      ...wait,
      errors: {
        receiveErrors: count(r.counters.inErrors),
        transmitDiscards: count(r.counters.outDiscards),
        ...ecn,
      },
    };
  });
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
