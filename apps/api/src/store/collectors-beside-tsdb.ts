import type { LinkIndex } from '../lib/link-index.ts';
import type { RatesSnapshot } from '../lib/port-rates.ts';
import type { EmbeddedStore } from './embedded.ts';
import type { PrometheusStore } from './prometheus.ts';
import type { PrometheusTimeQueries } from './prometheus-history.ts';
import type { FiringAlert, MetricsStore, PortTotals } from './types.ts';

/**
 * Live view from the collectors' Arrow answers (FABSCOPE_LIVE_SOURCE=collectors), rated by an embedded store keeping no
 * history; the TSDB answers history, events, alerts: on a big fabric its live reads outlast the tick (docs/scaling.md).
 */
export class CollectorsBesideTsdb implements MetricsStore {
  /** Its history, events and alerts are the TSDB's: time travel and /health name Prometheus. */
  readonly kind = 'prometheus';
  readonly liveSource = 'collectors';

  constructor(
    private readonly live: EmbeddedStore,
    private readonly tsdb: PrometheusStore,
  ) {}

  rates(signal?: AbortSignal): Promise<RatesSnapshot> {
    return this.live.rates(signal);
  }

  portTotals(keys: readonly string[]): Promise<(PortTotals | null)[]> {
    return this.live.portTotals(keys);
  }

  /** The live tick follows the collectors' scrapes (the TSDB's sweeps are not watched). */
  onScrape(listener: () => void): () => void {
    return this.live.onScrape(() => listener());
  }

  firingAlerts(signal?: AbortSignal): Promise<FiringAlert[]> {
    return this.tsdb.firingAlerts(signal);
  }

  timeQueries(index: LinkIndex): PrometheusTimeQueries | null {
    return this.tsdb.timeQueries(index);
  }

  async close(): Promise<void> {
    await Promise.all([this.live.close(), this.tsdb.close()]);
  }
}
