import { type CounterField, type MetricsStore, PORT_COUNTERS, type PortRates, portKey, type RatesSnapshot } from './types.ts';

export interface PrometheusStoreOptions {
  /** Base URL of the Prometheus server, e.g. http://127.0.0.1:9090 */
  url: string;
  /** PromQL range for rate(); at least four scrape intervals. */
  rateWindow?: string;
  /** Series whose newest sample is older than this are stale. */
  staleAfterSeconds?: number;
  timeoutMs?: number;
  fetch?: typeof fetch;
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
    const response = await this.fetchImpl(url, { signal: signal ? AbortSignal.any([signal, timeout]) : timeout });
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
    try {
      const [ages, ...rates] = await Promise.all([
        this.query(`time() - timestamp(${PORT_COUNTERS.transmitBytes})`, signal),
        ...fields.map((f) => this.query(`rate(${PORT_COUNTERS[f]}[${window}])`, signal)),
      ]);
      const ports = new Map<string, PortRates>();
      let youngest = Number.POSITIVE_INFINITY;
      const fresh = new Set<string>();
      for (const series of ages ?? []) {
        const age = Number(series.value[1]);
        youngest = Math.min(youngest, age);
        const { node_guid: guid, port } = series.metric;
        if (guid && port && age <= staleAfter) fresh.add(portKey(guid, port));
      }
      fields.forEach((field, i) => {
        for (const series of rates[i] ?? []) {
          const { node_guid: guid, port } = series.metric;
          if (!guid || !port) continue;
          const key = portKey(guid, port);
          if (!fresh.has(key)) continue;
          let entry = ports.get(key);
          if (!entry) {
            entry = {
              transmitBytesPerSecond: null,
              receiveBytesPerSecond: null,
              transmitPacketsPerSecond: null,
              receivePacketsPerSecond: null,
              transmitWaitTicksPerSecond: null,
            };
            ports.set(key, entry);
          }
          const value = Number(series.value[1]);
          const rate = Number.isFinite(value) && value >= 0 ? value : null;
          if (field === 'transmitBytes') entry.transmitBytesPerSecond = rate;
          else if (field === 'receiveBytes') entry.receiveBytesPerSecond = rate;
          else if (field === 'transmitPackets') entry.transmitPacketsPerSecond = rate;
          else if (field === 'receivePackets') entry.receivePacketsPerSecond = rate;
          else entry.transmitWaitTicksPerSecond = rate;
        }
      });
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

  async close(): Promise<void> {}
}
