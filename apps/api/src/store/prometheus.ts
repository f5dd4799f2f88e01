import type { LinkIndex } from '../lib/link-index.ts';
import type { RatesSnapshot } from '../lib/port-rates.ts';
import { EvaluationWatch } from './evaluation-watch.ts';
import { PrometheusTimeQueries } from './prometheus-history.ts';
import { EdgeLive, NEWEST_SWEEP } from './prometheus-live.ts';
import { rawCounterRates, type VectorResult } from './prometheus-raw.ts';
import { PromqlClient, QueryGate, sampleValue, tsdbUrl } from './promql-client.ts';
import { fabscopeMapping, type SeriesMapping } from './series-mapping.ts';
import type { FiringAlert, MetricsStore } from './types.ts';

export { durationMs, fullWindow, rateQuery, selector } from './rate-window.ts';

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

interface QueryAnswer {
  status: 'success' | 'error';
  error?: string;
  data?: { resultType: string; result: VectorResult[] };
}

/** Reads rates with PromQL from a Prometheus server that scrapes the collectors. */
export class PrometheusStore implements MetricsStore {
  readonly kind = 'prometheus';
  private readonly fetchImpl: typeof fetch;

  /**
   * With the rates at the edge, the sampler ticks after each new sweep lands in Prometheus
   * (evaluation-watch.ts polls the newest sweep's time); reading raw counters, on its own clock.
   */
  readonly onScrape?: (listener: () => void) => () => void;
  private readonly watch: EvaluationWatch | undefined;
  /** The turns every PromQL query of this store takes (the live tick, the watch, history). */
  private readonly gate: QueryGate;
  /** The live tick's and the watch's client. */
  private readonly promql: PromqlClient;

  constructor(private readonly options: PrometheusStoreOptions) {
    this.fetchImpl = options.fetch ?? fetch;
    this.gate = new QueryGate(options.maxConcurrentQueries);
    this.promql = new PromqlClient({
      url: options.url,
      timeoutMs: options.timeoutMs,
      fetch: options.fetch,
      gate: this.gate,
    });
    if (this.readsEdge()) {
      const query = NEWEST_SWEEP;
      const watch = new EvaluationWatch({
        intervalMs: options.scrapeIntervalMs ?? 1000,
        newestEvaluation: async () => {
          const [newest] = await this.promql.query(query);
          return newest ? sampleValue(newest.value[1]) : null;
        },
      });
      this.watch = watch;
      this.onScrape = (listener) => watch.subscribe(listener);
    }
  }

  private readsEdge(): boolean {
    const mapping = this.options.mapping ?? fabscopeMapping;
    return mapping.source === 'fabscope' && (this.options.live ?? 'edge') === 'edge';
  }

  /** A raw-path query (other sources' counters), in its turn with the store's other queries. */
  private query(promql: string, signal?: AbortSignal, atMs?: number): Promise<VectorResult[]> {
    return this.gate.run(() => this.send(promql, signal, atMs), signal);
  }

  private async send(promql: string, signal?: AbortSignal, atMs?: number): Promise<VectorResult[]> {
    const url = tsdbUrl(this.options.url, '/api/v1/query');
    url.searchParams.set('query', promql);
    // One evaluation instant for every query of a snapshot: sent at once, they would otherwise be
    // evaluated a little apart, and a direction's tx (one query) and rx (another) disagree.
    if (atMs !== undefined) url.searchParams.set('time', (atMs / 1000).toFixed(3));
    const timeout = AbortSignal.timeout(this.options.timeoutMs ?? 5000);
    const response = await this.fetchImpl(url, {
      signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
    });
    const answer = (await response.json().catch(() => null)) as QueryAnswer | null;
    if (!response.ok || !answer || answer.status !== 'success' || !answer.data) {
      throw new Error(`Prometheus answered HTTP ${response.status}: ${answer?.error ?? 'no result'}`);
    }
    return answer.data.result;
  }

  private edge: EdgeLive | undefined;

  async rates(signal?: AbortSignal): Promise<RatesSnapshot> {
    if (this.readsEdge()) return this.edgeRates(signal);
    return this.rawRates(signal);
  }

  /** The live tick from the collector's rates at the edge (prometheus-live.ts). */
  private async edgeRates(signal?: AbortSignal): Promise<RatesSnapshot> {
    const timeMs = Date.now();
    this.edge ??= new EdgeLive(this.promql, { staleAfterSeconds: this.options.staleAfterSeconds ?? 5 });
    try {
      return { timeMs, ok: true, ...(await this.edge.rates(signal)) };
    } catch (error) {
      return this.unavailable(timeMs, error);
    }
  }

  private unavailable(timeMs: number, error: unknown): RatesSnapshot {
    return {
      timeMs,
      ok: false,
      error: `Prometheus at ${this.options.url} unavailable: ${error instanceof Error ? error.message : String(error)}`,
      lastSampleAgeSeconds: null,
      ports: new Map(),
    };
  }

  /** The live tick from the raw counters of every port: sources no recording rule covers. */
  private async rawRates(signal?: AbortSignal): Promise<RatesSnapshot> {
    const timeMs = Date.now();
    try {
      return await rawCounterRates((promql) => this.query(promql, signal, timeMs), {
        timeMs,
        rateWindow: this.options.rateWindow ?? '5s',
        scrapeIntervalMs: this.options.scrapeIntervalMs ?? 1000,
        staleAfterSeconds: this.options.staleAfterSeconds ?? 5,
        mapping: this.options.mapping ?? fabscopeMapping,
      });
    } catch (error) {
      return this.unavailable(timeMs, error);
    }
  }

  /**
   * History from the collector's per-direction series (its rates at the edge); only fabscope's
   * own collectors write them: other sources keep no history here (null).
   */
  timeQueries(index: LinkIndex): PrometheusTimeQueries | null {
    if ((this.options.mapping ?? fabscopeMapping).source !== 'fabscope') return null;
    const client = new PromqlClient({
      url: this.options.url,
      timeoutMs: this.options.timeoutMs ?? 10_000,
      fetch: this.options.fetch,
      gate: this.gate,
    });
    return new PrometheusTimeQueries(client, index, {
      scrapeIntervalMs: this.options.scrapeIntervalMs ?? 1000,
      staleAfterSeconds: this.options.staleAfterSeconds ?? 5,
    });
  }

  /** The firing alerts of the rules Prometheus evaluates (deploy/prometheus/rules/alerts.yml). */
  async firingAlerts(signal?: AbortSignal): Promise<FiringAlert[]> {
    const url = tsdbUrl(this.options.url, '/api/v1/alerts');
    const timeout = AbortSignal.timeout(this.options.timeoutMs ?? 5000);
    const response = await this.fetchImpl(url, {
      signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
    });
    const answer = (await response.json().catch(() => null)) as {
      status?: string;
      data?: {
        alerts?: {
          labels?: Record<string, string>;
          annotations?: Record<string, string>;
          state?: string;
          activeAt?: string;
        }[];
      };
    } | null;
    if (!response.ok || answer?.status !== 'success')
      throw new Error(`Prometheus alerts answered HTTP ${response.status}`);
    return (answer.data?.alerts ?? [])
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
