import type { ErrorRates } from '@fabscope/contracts';

/** Per-second rates of one port over the latest sampling period. A null rate is a gap. */
export interface PortRates {
  transmitBytesPerSecond: number | null;
  receiveBytesPerSecond: number | null;
  transmitPacketsPerSecond: number | null;
  receivePacketsPerSecond: number | null;
  /** XmitWait ticks per second (data queued, no flow-control credit), when known. */
  transmitWaitTicksPerSecond: number | null;
  /** Length of one XmitWait tick in seconds, when the source reports it; null when unknown. */
  transmitWaitTickSeconds: number | null;
  /** Whether the port's link is active (a fresh link-state gauge); null when not reported. */
  linkUp: boolean | null;
  /**
   * Error counters per second and the latest value of the two gauges (LQI, lanes down), by
   * ERROR_FIELDS name; a field is absent when unknown (a clear is a gap, never a spike).
   */
  errors?: ErrorRates;
}

/** PortRates with nothing known: the start of a port's entry. */
export function emptyPortRates(): PortRates {
  return {
    transmitBytesPerSecond: null,
    receiveBytesPerSecond: null,
    transmitPacketsPerSecond: null,
    receivePacketsPerSecond: null,
    transmitWaitTicksPerSecond: null,
    transmitWaitTickSeconds: null,
    linkUp: null,
  };
}

/**
 * One link direction as its source measured it whole (the fabric collector's per-direction gauges),
 * keyed by the sending port's portKey. Null when unknown.
 */
export interface DirectionRates {
  bytesPerSecond: number | null;
  packetsPerSecond: number | null;
  /** Share of the time the sender waited for credit (XmitWait × tick), 0..1. */
  transmitWaitFraction: number | null;
}

/** A store's answer: every fresh port's rates at one instant. */
export interface RatesSnapshot {
  /** When the store answered (Unix ms). */
  timeMs: number;
  /** False when the store itself could not be reached or answered with an error. */
  ok: boolean;
  error?: string;
  /** Age of the newest sample the store holds, null when it holds none. */
  lastSampleAgeSeconds: number | null;
  /** Age beyond which the store itself counts its data as stale, when it knows. */
  staleAfterSeconds?: number;
  /** Keyed by portKey(guid, port). Ports absent here are stale. */
  ports: ReadonlyMap<string, PortRates>;
  /** Present when the store read whole directions (the collector's gauges), by the sending port's key. */
  directions?: Map<string, DirectionRates>;
}

/**
 * Port readings held as columns by slot (the embedded store's answer): the frame reads them slot by
 * slot instead of making an object per port.
 */
export interface SlottedPorts extends ReadonlyMap<string, PortRates> {
  readonly slotOfKey: ReadonlyMap<string, number>;
  /** Slots at the time of the answer: a key given a slot later is not in it. */
  readonly slots: number;
  /** Per slot, 1 when the answer has a reading of the port. */
  readonly read: Uint8Array;
  /** The port of `slot` as an object, into `out` when given. */
  readSlot(slot: number, out?: PortRates): PortRates;
}

export function isSlotted(ports: ReadonlyMap<string, PortRates>): ports is SlottedPorts {
  return typeof (ports as Partial<SlottedPorts>).readSlot === 'function';
}

export function portKey(guid: string, port: number | string): string {
  return `${guid}/${port}`;
}
