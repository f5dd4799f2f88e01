import type { NodeType } from '@fabscope/topology';
import { ToolTimeoutError } from '../sources/run-tool.ts';
import type { PortErrorCounters } from './error-counters.ts';

/** One switch or adapter port as a fabric source reports it, data already converted to bytes. */
export interface PortSample {
  nodeGuid: string;
  nodeName: string;
  nodeType: NodeType;
  portNumber: number;
  lid: number;
  rateBytesPerSecond: number;
  linkUp: boolean;
  /** IBA PortInfo:PortPhysicalState 1..7 (5 LinkUp), where the source reads it; absent where it does not. */
  physicalState?: number;
  /** The far end of the cable; its type when the source knows it (ibnetdiscover does). */
  remote: {
    nodeGuid: string;
    nodeName: string;
    portNumber: number;
    nodeType?: NodeType;
  } | null;
  transmitBytes: number;
  receiveBytes: number;
  transmitPackets: number;
  receivePackets: number;
  /** Ticks with data queued and no credit (XmitWait), in the hardware's own tick unit. */
  transmitWaitTicks: number;
  /** Length of one XmitWait tick, when the source knows it (NaN or absent otherwise). */
  transmitWaitTickSeconds?: number;
  /** Error counters, absent when the source does not report them (NaN: reported, but unknown now). */
  errors?: PortErrorCounters;
  /**
   * When this port's counters were read (Unix ms), where the source knows each port's own instant (a MAD's
   * round trip): its rates use its own Δt; absent, the snapshot's `countersReadAtMs` stands for every port.
   */
  countersReadAtMs?: number;
  /**
   * Counters stuck at the maximum of their width (saturated, so unknown: NaN above), by field name
   * (`transmitWait`, `linkDowned`, …) → Unix ms of the first such reading; absent when none is.
   */
  saturatedSinceMs?: Record<string, number>;
}

export type { PortErrorCounters } from './error-counters.ts';

/** How one target of a source (a switch queried with perfquery, a port with opapmaquery) went. */
export interface TargetResult {
  target: string;
  durationSeconds: number;
  outcome: 'ok' | 'error' | 'timeout';
  /** Why a target failed, when the source can say (an SNMP agent's timeout, noSuchObject, restart). */
  reason?: string;
}

/** Queries one target and says how it went (`ok`, `timeout`, `error` with `fallback`): one target's failure never fails the others. */
export async function queryTarget<T>(
  target: string,
  query: () => Promise<T>,
  fallback: T,
): Promise<{ value: T; result: TargetResult }> {
  const started = performance.now();
  const result = (outcome: TargetResult['outcome']): TargetResult => ({
    target,
    durationSeconds: (performance.now() - started) / 1000,
    outcome,
  });
  try {
    const value = await query();
    return { value, result: result('ok') };
  } catch (error) {
    return { value: fallback, result: result(error instanceof ToolTimeoutError ? 'timeout' : 'error') };
  }
}

/** A port's traffic counters as a tool prints them (data already in bytes); null where it did not. */
export interface ToolTrafficCounters {
  transmitBytes: bigint | null;
  receiveBytes: bigint | null;
  transmitPackets: bigint | null;
  receivePackets: bigint | null;
  transmitWait: bigint | null;
}

export const NO_TRAFFIC_COUNTERS: ToolTrafficCounters = {
  transmitBytes: null,
  receiveBytes: null,
  transmitPackets: null,
  receivePackets: null,
  transmitWait: null,
};

/** A port's traffic counters as a sample's numbers; a counter the tool did not print is NaN (unknown). */
export function trafficCounters(
  c: ToolTrafficCounters,
): Pick<
  PortSample,
  'transmitBytes' | 'receiveBytes' | 'transmitPackets' | 'receivePackets' | 'transmitWaitTicks'
> {
  return {
    transmitBytes: Number(c.transmitBytes ?? Number.NaN),
    receiveBytes: Number(c.receiveBytes ?? Number.NaN),
    transmitPackets: Number(c.transmitPackets ?? Number.NaN),
    receivePackets: Number(c.receivePackets ?? Number.NaN),
    transmitWaitTicks: Number(c.transmitWait ?? Number.NaN),
  };
}

export interface FabricSnapshot {
  fabric: string;
  fabricType: string;
  ports: PortSample[];
  /** When the counters were read (Unix ms), if the source knows: their sample timestamp, so rates are exact however late the scrape. */
  countersReadAtMs?: number;
  /** Per-target outcomes, for sources that query many targets; the ports of failed targets are absent. */
  targets?: TargetResult[];
  /** MADs of this read, for sources that send them (the InfiniBand reader). */
  mads?: { sent: number; retries: number; failedPorts: number };
  /** An object that stays the same while the ports, their order and far ends do: what is derived from the order is kept with it. */
  layout?: object;
}

/** A place port counters come from: the emulator's endpoint, perfquery, opapmaquery. */
export interface FabricSource {
  readonly name: string;
  read(signal: AbortSignal): Promise<FabricSnapshot>;
}
