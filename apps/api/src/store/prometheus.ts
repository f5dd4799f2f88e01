import type { LinkIndex } from '../lib/link-index.ts';
import type { RatesSnapshot } from '../lib/port-rates.ts';
import { EvaluationWatch } from './evaluation-watch.ts';
import { PrometheusTimeQueries } from './prometheus-history.ts';
import { EdgeLive, NEWEST_SWEEP } from './prometheus-live.ts';
import { rawCounterRates } from './prometheus-raw.ts';
import { portTotalsOf, portTotalsQuery } from './prometheus-totals.ts';
import { PromqlClient, QueryGate, sampleValue } from './promql-client.ts';
import { fabscopeMapping, type SeriesMapping } from './series-mapping.ts';
import type { FiringAlert, MetricsStore, PortTotals } from './types.ts';

export interface PrometheusStoreOptions {
  /** Base URL of the Prometheus server, e.g. http://127.0.0.1:9090 */
  url: string;
  /** PromQL range for rate() of other sources' raw counters; at least four scrape intervals. */
  rateWindow?: string;
  /** Series whose newest sample is older than this are stale. */
  staleAfterSeconds?: number;
  timeoutMs?: number;
  fetch?: typeof fetch;
  /** Whose series to read (FABSCOPE_METRICS_SOURCE); fabscope's own by default. */
  mapping?: SeriesMapping;
  /** Prometheus' scrape interval: the finest step of history answers (default 1 s). */
  scrapeIntervalMs?: number | undefined;
  /**
   * Where the live tick reads fabscope's own series. `edge` (default) the collector's rates at the edge
   * (prometheus-live.ts).
   */
  live?: 'edge' | 'raw';
  /**
   * Queries in flight to the TSDB at once from this store — the live tick, the watch for new
   * sweeps and history together (FABSCOPE_TSDB_MAX_CONCURRENT_QUERIES; promql-client.ts's default).
   */
  maxConcurrentQueries?: number | undefined;
}

/** Reads rates with PromQL from a Prometheus server that scrapes the collectors. */
export class PrometheusStore implements MetricsStore {
  readonly kind = 'prometheus';
  /**
   * With the rates at the edge, the sampler ticks after each new sweep lands in Prometheus
   * (evaluation-watch.ts polls the newest sweep's time); reading raw counters, on its own clock.
   */
  readonly onScrape?: (listener: () => void) => () => void;
  /** Ports' last raw readings: fabscope's own families only (other exporters' names and joins differ). */
  readonly portTotals?: (keys: readonly string[], signal?: AbortSignal) => Promise<(PortTotals | null)[]>;
  private readonly watch: EvaluationWatch | undefined;
  /** The turns every PromQL query of this store takes (the live tick, the watch, history). */
  private readonly gate: QueryGate;
  /** The live tick's and the watch's client. */
  private readonly promql: PromqlClient;
  /** The raw path's client (other sources' counters): its queries in the URL. */
  private readonly raw: PromqlClient;

  constructor(private readonly options: PrometheusStoreOptions) {
    this.gate = new QueryGate(options.maxConcurrentQueries);
    this.promql = this.client(options.timeoutMs);
    this.raw = this.client(options.timeoutMs, 'GET');
    if (this.readsEdge()) {
      const watch = new EvaluationWatch({
        intervalMs: options.scrapeIntervalMs ?? 1000,
        newestEvaluation: async () => {
          const [newest] = await this.promql.query(NEWEST_SWEEP);
          return newest ? sampleValue(newest.value[1]) : null;
        },
      });
      this.watch = watch;
      this.onScrape = (listener) => watch.subscribe(listener);
    }
    if ((options.mapping ?? fabscopeMapping).source === 'fabscope')
      this.portTotals = (keys, signal) => this.lastReadings(keys, signal);
  }

  /**
   * The ports' counters as last scraped and their physical state, by one instant query of their raw samples within the
   * staleness limit (a slow raw-counter job's interval where Prometheus has one): older is unknown.
   */
  private async lastReadings(keys: readonly string[], signal?: AbortSignal): Promise<(PortTotals | null)[]> {
    const { staleAfterSeconds = 5, scrapeIntervalMs = 1000 } = this.options;
    // The demo's Prometheus scrapes raw counters in a slow job off a 1 s interval (apps/cli/src/prometheus).
    const slowSeconds = scrapeIntervalMs <= 1000 ? 0 : Math.max(30, (3 * scrapeIntervalMs) / 1000);
    const promql = portTotalsQuery(keys, Math.max(staleAfterSeconds, 2 * slowSeconds));
    if (promql === null) return keys.map(() => null);
    return portTotalsOf(keys, await this.promql.queryRawSamples(promql, Date.now(), signal));
  }

  private client(timeoutMs: number | undefined, method?: 'GET'): PromqlClient {
    const { url, fetch } = this.options;
    return new PromqlClient({ url, timeoutMs, fetch, gate: this.gate, method });
  }

  private readsEdge(): boolean {
    const mapping = this.options.mapping ?? fabscopeMapping;
    return mapping.source === 'fabscope' && (this.options.live ?? 'edge') === 'edge';
  }

  private edge: EdgeLive | undefined;

  /**
   * The live tick: from the collector's rates at the edge (prometheus-live.ts), else from the raw counters of every
   * port (sources no recording rule covers).
   */
  async rates(signal?: AbortSignal): Promise<RatesSnapshot> {
    const timeMs = Date.now();
    const { staleAfterSeconds = 5, url } = this.options;
    try {
      if (this.readsEdge()) {
        this.edge ??= new EdgeLive(this.promql, staleAfterSeconds);
        return { timeMs, ok: true, ...(await this.edge.rates(signal)) };
      }
      return await rawCounterRates((promql) => this.raw.query(promql, timeMs, signal), {
        timeMs,
        rateWindow: this.options.rateWindow ?? '5s',
        scrapeIntervalMs: this.options.scrapeIntervalMs ?? 1000,
        staleAfterSeconds,
        mapping: this.options.mapping ?? fabscopeMapping,
      });
    } catch (error) {
      const why = error instanceof Error ? error.message : String(error);
      return {
        timeMs,
        ok: false,
        error: `Prometheus at ${url} unavailable: ${why}`,
        lastSampleAgeSeconds: null,
        ports: new Map(),
      };
    }
  }

  /**
   * History from the collector's per-direction series (its rates at the edge); only fabscope's
   * own collectors write them: other sources keep no history here (null).
   */
  timeQueries(index: LinkIndex): PrometheusTimeQueries | null {
    if ((this.options.mapping ?? fabscopeMapping).source !== 'fabscope') return null;
    return new PrometheusTimeQueries(this.client(this.options.timeoutMs ?? 10_000), index, {
      scrapeIntervalMs: this.options.scrapeIntervalMs ?? 1000,
      staleAfterSeconds: this.options.staleAfterSeconds ?? 5,
    });
  }

  /** The firing alerts of the rules Prometheus evaluates (deploy/prometheus/rules/alerts.yml). */
  async firingAlerts(signal?: AbortSignal): Promise<FiringAlert[]> {
    // Out of turn, as a page of the UI would ask.
    const data = await this.promql.send<{
      alerts?: {
        labels?: Record<string, string>;
        annotations?: Record<string, string>;
        state?: string;
        activeAt?: string;
      }[];
    }>('/api/v1/alerts', {}, signal, 'GET');
    return (data.alerts ?? [])
      .filter((a) => a.state === 'firing')
      .map((a): FiringAlert => {
        const labels = a.labels ?? {};
        const port = labels.node_name && labels.port ? `${labels.node_name}/${labels.port}` : undefined;
        return {
          name: labels.alertname ?? 'alert',
          activeAtMs: Date.parse(a.activeAt ?? '') || Date.now(),
          severity: labels.severity ?? 'warning',
          subject: port ?? labels.instance ?? labels.fabric ?? 'fabric',
          summary: a.annotations?.summary ?? '',
        };
      });
  }

  async close(): Promise<void> {
    this.watch?.stop();
  }
}
