/** One switch or adapter port as a fabric source reports it, data already converted to bytes. */
export interface PortSample {
  nodeGuid: string;
  nodeName: string;
  nodeType: 'host' | 'switch' | 'router';
  portNumber: number;
  lid: number;
  rateBytesPerSecond: number;
  linkUp: boolean;
  /** The far end of the cable; its type when the source knows it (ibnetdiscover does). */
  remote: {
    nodeGuid: string;
    nodeName: string;
    portNumber: number;
    nodeType?: 'host' | 'switch' | 'router';
  } | null;
  transmitBytes: number;
  receiveBytes: number;
  transmitPackets: number;
  receivePackets: number;
  /** Ticks with data queued and no credit (XmitWait), in the hardware's own tick unit. */
  transmitWaitTicks: number;
  /** Length of one XmitWait tick, when the source knows it (NaN or absent otherwise). */
  transmitWaitTickSeconds?: number;
  /** Error counters, absent when the source does not report them. */
  errors?: PortErrorCounters;
}

/** Cumulative error counters of a port (PortCounters / opapmaquery names in brackets). */
export interface PortErrorCounters {
  /** [SymbolErrorCounter; Omni-Path: Local Link Integrity Errors] */
  symbolErrors?: number;
  /** [LinkErrorRecoveryCounter] */
  linkErrorRecovery?: number;
  /** [LinkDownedCounter] */
  linkDowned?: number;
  /** [PortRcvErrors] */
  receiveErrors?: number;
  /** [PortXmitDiscards] */
  transmitDiscards?: number;
}

/** How one target of a source (a switch queried with perfquery, a port with opapmaquery) went. */
export interface TargetResult {
  target: string;
  durationSeconds: number;
  outcome: 'ok' | 'error' | 'timeout';
}

export interface FabricSnapshot {
  fabric: string;
  fabricType: string;
  ports: PortSample[];
  /** Per-target outcomes, for sources that query many targets; the ports of failed targets are absent. */
  targets?: TargetResult[];
}

/** A place port counters come from: the emulator's endpoint, perfquery, opapmaquery. */
export interface FabricSource {
  readonly name: string;
  read(signal: AbortSignal): Promise<FabricSnapshot>;
}
