import type { LinkIndex } from '../lib/utilization.ts';
import { PrometheusTimeQueries } from './prometheus-history.ts';
import { PromqlClient } from './promql-client.ts';
import { fabscopeMapping, linkUpOf, type SeriesMapping } from './series-mapping.ts';
import {
  type CounterField,
  emptyPortRates,
  type MetricsStore,
  PORT_COUNTERS,
  type PortRates,
  type RatesSnapshot,
} from './types.ts';

/** A PromQL selector for one or several metric names. */
export function selector(names: readonly string[]): string {
  return names.length === 1 ? (names[0] as string) : `{__name__=~"${names.join('|')}"}`;
}

/**
 * The rate of a counter over the window, except for series whose counter went backwards in it
 * (device restart, a clear by another tool, a 32-bit wrap): rate() would count the whole new value
 * as traffic there (a spike), so the period is left out, a gap.
 */
export function rateQuery(names: readonly string[], window: string): string {
  const sel = selector(names);
  return `rate(${sel}[${window}]) unless resets(${sel}[${window}]) > 0`;
}

export interface PrometheusStoreOptions {
  /** Base URL of the Prometheus server, e.g. http://127.0.0.1:9090 */
  url: string;
  /** PromQL range for rate(); at least four scrape intervals. */
  rateWindow?: string;
  /** Series whose newest sample is older than this are stale. */
  staleAfterSeconds?: number;
  timeoutMs?: number;
  fetch?: typeof fetch;
  /** Whose series to read (FABSCOPE_METRICS_SOURCE); fabscope's own by default. */
  mapping?: SeriesMapping;
  /** Prometheus' scrape interval: the finest step of history answers (default 1 s). */
  scrapeIntervalMs?: number | undefined;
}

interface VectorResult {
  metric: Record<string, string>;
  value: [number, string];
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

  constructor(private readonly options: PrometheusStoreOptions) {
    this.fetchImpl = options.fetch ?? fetch;
  }

  private async query(promql: string, signal?: AbortSignal): Promise<VectorResult[]> {
    const url = new URL('/api/v1/query', this.options.url);
    url.searchParams.set('query', promql);
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

  async rates(signal?: AbortSignal): Promise<RatesSnapshot> {
    const timeMs = Date.now();
    const window = this.options.rateWindow ?? '5s';
    const staleAfter = this.options.staleAfterSeconds ?? 5;
    const fields = Object.keys(PORT_COUNTERS) as CounterField[];
    const mapping = this.options.mapping ?? fabscopeMapping;
    const gauges = (names: readonly string[]) =>
      names.length > 0 ? this.query(selector(names), signal) : Promise.resolve([] as VectorResult[]);
    try {
      const [ages, joins, waitTicks, linkStates, ...rates] = await Promise.all([
        this.query(`time() - timestamp(${selector(mapping.fields.transmitBytes)})`, signal),
        gauges(mapping.joinMetrics),
        gauges(mapping.waitTickMetrics),
        gauges(Object.keys(mapping.linkUpMetrics)),
        ...fields.map((f) => this.query(rateQuery(mapping.fields[f], window), signal)),
      ]);
      const resolve = mapping.resolver(
        (joins ?? []).map((j) => ({
          name: j.metric.__name__ ?? '',
          labels: j.metric,
          instance: j.metric.instance,
        })),
      );
      const keyOf = (metric: Record<string, string>) =>
        resolve({ name: metric.__name__ ?? '', labels: metric, instance: metric.instance });
      const ports = new Map<string, PortRates>();
      let youngest = Number.POSITIVE_INFINITY;
      const fresh = new Set<string>();
      for (const series of ages ?? []) {
        const age = Number(series.value[1]);
        const key = keyOf(series.metric);
        if (key === null) continue;
        youngest = Math.min(youngest, age);
        if (age <= staleAfter) fresh.add(key);
      }
      const entryOf = (key: string): PortRates => {
        let entry = ports.get(key);
        if (!entry) {
          entry = emptyPortRates();
          ports.set(key, entry);
        }
        return entry;
      };
      fields.forEach((field, i) => {
        for (const series of rates[i] ?? []) {
          const key = keyOf(series.metric);
          if (key === null || !fresh.has(key)) continue;
          const entry = entryOf(key);
          const value = Number(series.value[1]);
          const rate = Number.isFinite(value) && value >= 0 ? value : null;
          if (field === 'transmitBytes') entry.transmitBytesPerSecond = rate;
          else if (field === 'receiveBytes') entry.receiveBytesPerSecond = rate;
          else if (field === 'transmitPackets') entry.transmitPacketsPerSecond = rate;
          else if (field === 'receivePackets') entry.receivePacketsPerSecond = rate;
          else entry.transmitWaitTicksPerSecond = rate;
        }
      });
      // Gauges: the tick length and the link state, for ports with fresh counters only.
      for (const series of waitTicks ?? []) {
        const key = keyOf(series.metric);
        const value = Number(series.value[1]);
        if (key === null || !ports.has(key) || !(value > 0) || !Number.isFinite(value)) continue;
        entryOf(key).transmitWaitTickSeconds = value;
      }
      const linkStateSeen = new Set<string>();
      for (const series of linkStates ?? []) {
        const key = keyOf(series.metric);
        if (key === null || !ports.has(key) || linkStateSeen.has(key)) continue;
        const up = linkUpOf(mapping, series.metric.__name__ ?? '', Number(series.value[1]));
        if (up === null) continue;
        linkStateSeen.add(key);
        entryOf(key).linkUp = up;
      }
      return {
        timeMs,
        ok: true,
        lastSampleAgeSeconds: Number.isFinite(youngest) ? Math.max(0, youngest) : null,
        ports,
      };
    } catch (error) {
      return {
        timeMs,
        ok: false,
        error: `Prometheus at ${this.options.url} unavailable: ${error instanceof Error ? error.message : String(error)}`,
        lastSampleAgeSeconds: null,
        ports: new Map(),
      };
    }
  }

  /**
   * History from the recorded per-direction series (deploy/prometheus/rules/recording.yml); only
   * fabscope's own series have them: other sources keep no history here (null).
   */
  timeQueries(index: LinkIndex): PrometheusTimeQueries | null {
    if ((this.options.mapping ?? fabscopeMapping).source !== 'fabscope') return null;
    const client = new PromqlClient({
      url: this.options.url,
      timeoutMs: this.options.timeoutMs ?? 10_000,
      fetch: this.options.fetch,
    });
    return new PrometheusTimeQueries(client, index, {
      rateWindow: this.options.rateWindow ?? '5s',
      scrapeIntervalMs: this.options.scrapeIntervalMs ?? 1000,
    });
  }

  async close(): Promise<void> {}
}
