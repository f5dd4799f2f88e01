/**
 * A lossless Ethernet switch's congestion counters by SNMP: PFC pause frames from the standard IEEE8021-PFC-MIB
 * and ECN marks from Arista's ARISTA-QOS-MIB (no standard MIB counts ECN marks), in the port samples' vocabulary.
 */
import type { PortSample } from '../../fabric/port-sample.ts';
import { counter64, type SnmpTable } from './snmp-tables.ts';

/** The tables walked for them: ieee8021PfcIfTable (requests sent, indications received) and
 * aristaEcnQueueCounterTable (aristaEcnQueuePktsMarked, indexed ifIndex.queue). */
export const CONGESTION_TABLES = [
  { oid: '1.3.111.2.802.1.1.21.1.1', columns: [2, 3] },
  { oid: '1.3.6.1.4.1.30065.3.13.1.9', columns: [4] },
] as const;

/** PFC's longest pause, in quanta of 512 bit times. */
const PAUSE_QUANTA = 65535;

/** One interface's lossless counters; null where the agent does not give it. */
export interface PortCongestion {
  /** ieee8021PfcIndications: PFC frames received, the port was held back. Counter32. */
  pauseReceived: number | null;
  /** ieee8021PfcRequests: PFC frames sent, the port held its peer back. Counter32. */
  pauseSent: number | null;
  /** aristaEcnQueuePktsMarked summed over the interface's egress queues. */
  ecnMarked: bigint | null;
}

function counter32(value: unknown): number | null {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : null;
}

/** Each interface's counters by ifIndex, from the two tables as walked (either may be absent: null). */
export function decodeCongestion(
  pfcTable: SnmpTable | undefined,
  ecnQueueTable: SnmpTable | undefined,
): Map<number, PortCongestion> {
  const byIndex = new Map<number, PortCongestion>();
  const entry = (ifIndex: number) => {
    const found = byIndex.get(ifIndex) ?? { pauseReceived: null, pauseSent: null, ecnMarked: null };
    byIndex.set(ifIndex, found);
    return found;
  };
  for (const [index, row] of Object.entries(pfcTable ?? {})) {
    const e = entry(Number(index));
    e.pauseSent = counter32(row['2']);
    e.pauseReceived = counter32(row['3']);
  }
  for (const [index, row] of Object.entries(ecnQueueTable ?? {})) {
    const marked = counter64(row['4']);
    if (marked === null) continue;
    const e = entry(Number(index.split('.')[0]));
    e.ecnMarked = (e.ecnMarked ?? 0n) + marked;
  }
  return byIndex;
}

/**
 * The tick one PFC frame received stands for: the MIB counts frames, not time, and a switch refreshes XOFF at half
 * of the longest pause while its buffer stays full, so frames × this tick estimate the time paused (docs/metrics.md).
 */
export function pauseFrameSeconds(speedMbps: number | null): number {
  return speedMbps === null || !(speedMbps > 0) ? Number.NaN : (PAUSE_QUANTA * 512) / 2 / (speedMbps * 1e6);
}

/**
 * A port sample's congestion fields from its interface's counters: pause received as its wait (the congestion
 * share, as XmitWait is on InfiniBand), ECN marks at its egress as `markFecn`. Unknown (NaN) where not given.
 */
export function congestionFields(
  c: PortCongestion | undefined,
  speedMbps: number | null,
): Pick<PortSample, 'transmitWaitTicks' | 'transmitWaitTickSeconds'> & { ecn: { markFecn?: number } } {
  return {
    transmitWaitTicks: c?.pauseReceived ?? Number.NaN,
    transmitWaitTickSeconds: pauseFrameSeconds(speedMbps),
    // An interface without the ECN table's rows is not reported (absent); a row without a value is unknown.
    ecn: c === undefined ? {} : { markFecn: c.ecnMarked === null ? Number.NaN : Number(c.ecnMarked) },
  };
}
