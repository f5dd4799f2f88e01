import { ERROR_COUNTERS, PORT_COUNTER_FAMILIES, PORT_GAUGES } from '@fabscope/contracts';
import type { RatesSnapshot } from '../lib/port-rates.ts';

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

/** Where counters are read from: an embedded scraper or a Prometheus server. */
export interface MetricsStore {
  readonly kind: 'embedded' | 'prometheus';
  /** Set where a TSDB's store reads the live view from the collectors (collectors-beside-tsdb.ts). */
  readonly liveSource?: 'collectors';
  rates(signal?: AbortSignal): Promise<RatesSnapshot>;
  /** Alerts the store's server has firing now (Prometheus' `/api/v1/alerts`), when it has rules. */
  firingAlerts?(signal?: AbortSignal): Promise<FiringAlert[]>;
  /**
   * For a store with its own data clock: calls `listener` when new data is in (after each embedded scrape, each
   * recording-rule evaluation in Prometheus), so the sampler ticks on that clock instead of a second one.
   */
  onScrape?(listener: () => void): () => void;
  /**
   * Each port's counters as last read (cumulative since the last clear), by portKey; null for a port never read
   * (a TSDB: no fresh series). Absent where the store cannot read them.
   */
  portTotals?(keys: readonly string[], signal?: AbortSignal): Promise<(PortTotals | null)[]>;
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

/** A port's cumulative counters as last read, and when (no values: none read); its physical state where fresh. */
export interface PortTotals {
  timeMs: number;
  values: Partial<Record<CounterField, number>>;
  /** IBA PortInfo:PortPhysicalState (1..7) as last read, when the source reports it and it is not stale. */
  physicalState?: { code: number; timeMs: number };
}
