import {
  ERROR_COUNTERS,
  ERROR_FIELDS,
  type ErrorCounterField,
  type ErrorField,
  type ErrorRates,
  PORT_COUNTER_FAMILIES,
  PORT_GAUGES,
  type PortGaugeField,
} from '@fabscope/contracts';

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
   * Error counters per second over the period, and the latest value of the two gauges (LQI, lanes
   * down), by ERROR_FIELDS name; a field is absent when unknown (not reported, or reset within the
   * window: a clear is a gap, never a spike). Absent on stores that read no error counters.
   */
  errors?: ErrorRates;
}

export {
  ERROR_COUNTERS,
  ERROR_FIELDS,
  type ErrorCounterField,
  type ErrorField,
  type ErrorRates,
  PORT_GAUGES,
  type PortGaugeField,
};

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
 * One link direction as its source measured it whole: the fabric collector's per-direction gauges
 * (its rates at the edge: max(tx at the sender, rx at the receiver) per sweep), keyed by the
 * sending port's portKey. Null when unknown.
 */
export interface DirectionRates {
  bytesPerSecond: number | null;
  packetsPerSecond: number | null;
  /** Share of the time the sender waited for credit (XmitWait × tick), 0..1. */
  transmitWaitFraction: number | null;
}

export interface RatesSnapshot {
  /** When the store answered (Unix ms). */
  timeMs: number;
  /** False when the store itself could not be reached or answered with an error. */
  ok: boolean;
  error?: string;
  /** Age of the newest sample the store holds, null when it holds none. */
  lastSampleAgeSeconds: number | null;
  /**
   * Age beyond which the store itself counts its data as stale, when it knows (the embedded store:
   * from its interval and how long its scrapes take). The sampler's health uses at least this.
   */
  staleAfterSeconds?: number;
  /** Keyed by portKey(guid, port). Ports absent here are stale. */
  ports: ReadonlyMap<string, PortRates>;
  /**
   * Present when the store read whole directions (the collector's gauges): their traffic, by the
   * sending port's key; `ports` then carries the link states and error rates only.
   */
  directions?: Map<string, DirectionRates>;
}

/** A firing alert of deploy/prometheus/rules, as Prometheus reports it. */
export interface FiringAlert {
  name: string;
  /** Since when it fires (Unix ms). */
  activeAtMs: number;
  /** The rule's `severity` label. */
  severity: string;
  /** A port `node/port`, a collector instance, a fabric, or `fabric`. */
  subject: string;
  summary: string;
}

export function portKey(guid: string, port: number | string): string {
  return `${guid}/${port}`;
}

/** Where counters are read from: an embedded scraper or a Prometheus server. */
export interface MetricsStore {
  readonly kind: 'embedded' | 'prometheus';
  /** Set where a TSDB's store reads the live view from the collectors (collectors-beside-tsdb.ts). */
  readonly liveSource?: 'collectors';
  rates(signal?: AbortSignal): Promise<RatesSnapshot>;
  /** Alerts the store's server has firing now (Prometheus' `/api/v1/alerts`), when it has rules. */
  firingAlerts?(signal?: AbortSignal): Promise<FiringAlert[]>;
  /**
   * For a store whose data changes on a clock of its own: calls `listener` when new data is in
   * (after each scrape of the embedded store, each evaluation of the recording rules in
   * Prometheus), so the sampler ticks on that clock instead of a second one of its own.
   */
  onScrape?(listener: () => void): () => void;
  close(): Promise<void>;
}

/**
 * The counters every store reads, by the fabric collector's metric names (docs/metrics.md): data,
 * packets and XmitWait first (their positions are fixed), then the error counters, then the gauges.
 */
export const PORT_COUNTERS = {
  ...PORT_COUNTER_FAMILIES,
  ...ERROR_COUNTERS,
  ...PORT_GAUGES,
} as const;

export type CounterField = keyof typeof PORT_COUNTERS;
