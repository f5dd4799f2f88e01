/** The Prometheus HTTP API's instant and range queries (also VictoriaMetrics', which speaks it). */

export interface InstantSample {
  metric: Record<string, string>;
  value: [number, string];
}

export interface RangeSeries {
  metric: Record<string, string>;
  values: [number, string][];
}

interface Answer<T> {
  status: 'success' | 'error';
  error?: string;
  data?: { resultType: string; result: T[] };
}

export interface PromqlClientOptions {
  url: string;
  timeoutMs?: number | undefined;
  fetch?: typeof fetch | undefined;
}

/** Seconds with millisecond precision, as Prometheus takes times. */
export function promTime(ms: number): string {
  return (ms / 1000).toFixed(3);
}

/** A sample value as a number, or null for NaN, ±Inf and garbage. */
export function sampleValue(text: string): number | null {
  const v = Number(text);
  return Number.isFinite(v) ? v : null;
}

export class PromqlClient {
  private readonly fetchImpl: typeof fetch;

  constructor(private readonly options: PromqlClientOptions) {
    this.fetchImpl = options.fetch ?? fetch;
  }

  private async call<T>(path: string, params: Record<string, string>, signal?: AbortSignal): Promise<T[]> {
    const url = new URL(path, this.options.url);
    // POST keeps long selectors (many label values) out of the URL, as Prometheus' UI does.
    const body = new URLSearchParams(params);
    const timeout = AbortSignal.timeout(this.options.timeoutMs ?? 5000);
    const response = await this.fetchImpl(url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body,
      signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
    });
    const answer = (await response.json().catch(() => null)) as Answer<T> | null;
    if (!response.ok || !answer || answer.status !== 'success' || !answer.data) {
      throw new Error(`PromQL ${path} answered HTTP ${response.status}: ${answer?.error ?? 'no result'}`);
    }
    return answer.data.result;
  }

  /** An instant vector at `timeMs` (now when absent). */
  query(promql: string, timeMs?: number, signal?: AbortSignal): Promise<InstantSample[]> {
    const params: Record<string, string> = { query: promql };
    if (timeMs !== undefined) params.time = promTime(timeMs);
    return this.call('/api/v1/query', params, signal);
  }

  /** A range matrix from `fromMs` to `toMs` every `stepMs`. */
  queryRange(
    promql: string,
    fromMs: number,
    toMs: number,
    stepMs: number,
    signal?: AbortSignal,
  ): Promise<RangeSeries[]> {
    return this.call(
      '/api/v1/query_range',
      { query: promql, start: promTime(fromMs), end: promTime(toMs), step: String(stepMs / 1000) },
      signal,
    );
  }
}
