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
  data?: T;
}

export interface PromqlClientOptions {
  url: string;
  /** How long a query may take once sent (its wait for a turn is not counted). */
  timeoutMs?: number | undefined;
  fetch?: typeof fetch | undefined;
  /** The turns this client's queries take: one gate shared by a store's clients bounds them together. */
  gate?: QueryGate | undefined;
  /** POST (default) keeps long selectors (many label values) out of the URL, as Prometheus' UI does. */
  method?: 'GET' | 'POST' | undefined;
}

/** Queries in flight to one TSDB at a time, by default (FABSCOPE_TSDB_MAX_CONCURRENT_QUERIES). */
export const DEFAULT_MAX_CONCURRENT_QUERIES = 2;

/**
 * A bound on queries in flight: `run` waits for a turn (first come, first served), runs the query
 * and gives the turn to the next. Waiting ends early when the caller's signal aborts.
 */
export class QueryGate {
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(readonly max: number = DEFAULT_MAX_CONCURRENT_QUERIES) {
    if (!Number.isInteger(max) || max < 1)
      throw new RangeError(`at most ${max} queries: must be an integer ≥ 1`);
  }

  /** Queries running now, and waiting for a turn. */
  get inFlight(): number {
    return this.running;
  }
  get queued(): number {
    return this.waiting.length;
  }

  async run<T>(query: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    await this.turn(signal);
    try {
      return await query();
    } finally {
      this.running--;
      this.next();
    }
  }

  private turn(signal?: AbortSignal): Promise<void> {
    signal?.throwIfAborted();
    if (this.running < this.max) {
      this.running++;
      return Promise.resolve();
    }
    return new Promise<void>((resolve, reject) => {
      // An aborted wait leaves the queue at once, so `next` only ever starts live ones.
      const start = () => {
        signal?.removeEventListener('abort', abort);
        this.running++;
        resolve();
      };
      const abort = () => {
        this.waiting.splice(this.waiting.indexOf(start), 1);
        reject(signal?.reason);
      };
      signal?.addEventListener('abort', abort, { once: true });
      this.waiting.push(start);
    });
  }

  private next(): void {
    while (this.running < this.max && this.waiting.length > 0) this.waiting.shift()?.();
  }
}

/** How much of a TSDB's plain-text error the client keeps. */
const ERROR_TEXT_CHARS = 300;

/**
 * The TSDB's own words from an answer that is not PromQL JSON: the body's first line without
 * VictoriaMetrics' `remoteAddr: …; requestURI: …; ` prefix (the whole query), at most ERROR_TEXT_CHARS.
 */
export function errorText(body: string): string {
  const line = (body.split(/\r?\n/).find((l) => l.trim() !== '') ?? '').trim();
  const words = line.replace(/^remoteAddr: [^;]*; requestURI: [^;]*; /, '');
  return words.length > ERROR_TEXT_CHARS ? `${words.slice(0, ERROR_TEXT_CHARS - 1)}…` : words;
}

/** `path` of the TSDB's HTTP API under `base`, keeping the base's own path (a path-based proxy). */
export function tsdbUrl(base: string, path: string): URL {
  const root = new URL(base);
  if (!root.pathname.endsWith('/')) root.pathname += '/';
  return new URL(path.replace(/^\/+/, ''), root);
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
  readonly gate: QueryGate;

  constructor(private readonly options: PromqlClientOptions) {
    this.fetchImpl = options.fetch ?? fetch;
    this.gate = options.gate ?? new QueryGate();
  }

  private call<T>(path: string, params: Record<string, string>, signal?: AbortSignal): Promise<T[]> {
    return this.gate.run(async () => (await this.send<{ result: T[] }>(path, params, signal)).result, signal);
  }

  /** The `data` of the TSDB's answer at `path`, sent now (without waiting for a turn). */
  async send<T>(
    path: string,
    params: Record<string, string>,
    signal?: AbortSignal,
    method = this.options.method ?? 'POST',
  ): Promise<T> {
    const { status, ok, text } = await this.fetchText(path, params, signal, method);
    let answer: Answer<T> | null = null;
    try {
      answer = JSON.parse(text) as Answer<T>;
    } catch {
      // Not JSON: a TSDB's plain-text refusal (VictoriaMetrics over its search limit), a proxy's page.
    }
    if (!ok || !answer || answer.status !== 'success' || !answer.data)
      throw refusal(path, status, text, answer);
    return answer.data;
  }

  /**
   * A range query's answer as the TSDB wrote it (its status checked), for a reader that parses the matrix itself
   * (prometheus-matrix.ts: thousands of series without an object per point). Takes a turn as every query does.
   */
  queryRangeText(
    promql: string,
    fromMs: number,
    toMs: number,
    stepMs: number,
    signal?: AbortSignal,
  ): Promise<string> {
    const path = '/api/v1/query_range';
    const params = {
      query: promql,
      start: promTime(fromMs),
      end: promTime(toMs),
      step: String(stepMs / 1000),
    };
    return this.gate.run(async () => {
      // Uncompressed: gzip of megabytes of matrix costs the TSDB and this process more CPU than the bytes cost on
      // a LAN (docs/scaling.md).
      const { status, ok, text } = await this.fetchText(path, params, signal, this.options.method ?? 'POST', {
        'accept-encoding': 'identity',
      });
      // Both Prometheus and VictoriaMetrics write the status first.
      if (ok && /^\s*\{\s*"status"\s*:\s*"success"/.test(text.slice(0, 64))) return text;
      let answer: Answer<unknown> | null = null;
      try {
        answer = JSON.parse(text) as Answer<unknown>;
      } catch {
        // Not JSON: said by its text.
      }
      throw refusal(path, status, text, answer);
    }, signal);
  }

  private async fetchText(
    path: string,
    params: Record<string, string>,
    signal: AbortSignal | undefined,
    method: 'GET' | 'POST',
    headers: Record<string, string> = {},
  ): Promise<{ status: number; ok: boolean; text: string }> {
    const url = tsdbUrl(this.options.url, path);
    const form = new URLSearchParams(params);
    if (method === 'GET') url.search = form.toString();
    const timeoutMs = this.options.timeoutMs ?? 5000;
    const timeout = AbortSignal.timeout(timeoutMs);
    const both = signal ? AbortSignal.any([signal, timeout]) : timeout;
    try {
      const response = await this.fetchImpl(
        url,
        method === 'GET'
          ? { headers, signal: both }
          : {
              method: 'POST',
              headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded' },
              body: form,
              signal: both,
            },
      );
      return { status: response.status, ok: response.ok, text: await response.text() };
    } catch (error) {
      // Our own limit, said with the query's path and how long it waited (the caller's abort as it is).
      if (timeout.aborted && !signal?.aborted)
        throw new Error(`PromQL ${path} not answered within ${timeoutMs / 1000} s`, { cause: error });
      throw error;
    }
  }

  /** An instant vector at `timeMs` (now when absent). */
  query(promql: string, timeMs?: number, signal?: AbortSignal): Promise<InstantSample[]> {
    const params: Record<string, string> = { query: promql };
    if (timeMs !== undefined) params.time = promTime(timeMs);
    return this.call('/api/v1/query', params, signal);
  }

  /** A range selector's raw samples at `timeMs` (an instant query answered with a matrix): each one's own time. */
  queryRawSamples(promql: string, timeMs: number, signal?: AbortSignal): Promise<RangeSeries[]> {
    return this.call('/api/v1/query', { query: promql, time: promTime(timeMs) }, signal);
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

/** A TSDB's refusal, in its own words (its JSON error, else its text). */
function refusal(path: string, status: number, text: string, answer: Answer<unknown> | null): Error {
  const words = answer?.error ?? (errorText(text) || 'no answer');
  return new Error(`PromQL ${path} answered HTTP ${status}: ${words}`);
}

/** A label value quoted for a PromQL selector. */
export function labelValue(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/"/g, '\\"');
}
