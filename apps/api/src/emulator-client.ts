import {
  type AdaptiveRouting,
  type EmulatorJob,
  type FaultInfo,
  type FlowFilter,
  type FlowInfo,
  type RoutingState,
  STARTED_FLOWS_LISTED,
  type TrafficStarted,
} from '@fabscope/contracts';

/** The emulator's v1 shapes, from the one contract (packages/contracts). */
export type { EmulatorJob, FaultInfo, FlowFilter, FlowInfo, RoutingState };
export type AdaptiveRoutingState = AdaptiveRouting;

/** A page of the emulator's flows (`GET /v1/flows?limit=`, packages/emulator flow-listings.ts). */
export interface FlowListingPage {
  listing: string;
  timeMs: number;
  total: number;
  jobs: { job: string; flows: number; bytesPerSecond: number }[];
  flows: FlowInfo[];
}

/** A failed call to an upstream: its own 4xx passed through, 502 on failure, 504 without an answer in time. */
export class UpstreamError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    /** Who failed: `emulator`, `Prometheus`, `squeue`. */
    readonly upstream = 'emulator',
    readonly waitedMs?: number,
  ) {
    super(message);
    this.name = 'UpstreamError';
  }
}

/** How a fetch (or the read of its body) failed, as an UpstreamError naming `upstream` and the wait. */
export function upstreamFailure(
  upstream: string,
  asked: string,
  error: unknown,
  waitedMs: number,
  timeoutMs: number,
  phase: 'before it answered' | 'while it sent its answer',
): UpstreamError {
  const e = error as Error & { cause?: { code?: string; message?: string } };
  const failed = (status: number, message: string) => new UpstreamError(status, message, upstream, waitedMs);
  if (e.name === 'TimeoutError' || (e.name === 'AbortError' && waitedMs >= timeoutMs - 5)) {
    const got = phase === 'before it answered' ? 'no answer' : 'answer not complete';
    return failed(
      504,
      `${upstream} did not answer ${asked} within ${timeoutMs} ms (waited ${waitedMs} ms, ${got})`,
    );
  }
  if (e.cause?.code === 'ECONNREFUSED') {
    return failed(
      502,
      `${upstream} refused the connection for ${asked} (after ${waitedMs} ms): is it running?`,
    );
  }
  const why = e.cause?.message ?? e.message;
  if (phase === 'while it sent its answer') {
    return failed(502, `${upstream} cut its answer to ${asked} short after ${waitedMs} ms: ${why}`);
  }
  return failed(502, `${upstream} could not be asked ${asked} (after ${waitedMs} ms): ${why}`);
}

const READ_TRIES = 3;

function closedBeforeAnswer(error: unknown): boolean {
  const code = (error as { cause?: { code?: string } }).cause?.code;
  return code === 'UND_ERR_SOCKET' || code === 'ECONNRESET';
}

/** How long the API waits for the emulator: 5 s, and 1 s more per 2,000 hosts (it routes every flow). */
export function emulatorTimeoutMs(hosts: number): number {
  return 5000 + Math.ceil(hosts / 2000) * 1000;
}

/** Drives the emulator over its HTTP interface: its 4xx pass through, any other failure is a 502/504 naming it. */
export class EmulatorClient {
  constructor(
    readonly baseUrl: string,
    readonly timeoutMs = 5000,
    /** Sent as a bearer token: an emulator listening beyond loopback refuses changes without it. */
    private readonly token?: string,
  ) {}

  private async call<T>(method: string, path: string, body?: unknown): Promise<T> {
    const upstream = `emulator at ${this.baseUrl}`;
    const asked = `${method} ${path}`;
    const started = performance.now();
    const waited = () => Math.round(performance.now() - started);
    const headers: Record<string, string> = {};
    if (this.token) headers.authorization = `Bearer ${this.token}`;
    const init: RequestInit = { method, headers, signal: AbortSignal.timeout(this.timeoutMs) };
    if (body !== undefined) {
      init.body = JSON.stringify(body);
      headers['content-type'] = 'application/json';
    }
    let response: Response | undefined;
    // A kept-alive connection the emulator closed as we sent on it fails before any answer: a read is retried.
    for (let tries = 1; response === undefined; tries++) {
      try {
        response = await fetch(new URL(path, this.baseUrl), init);
      } catch (error) {
        if (method !== 'GET' || tries >= READ_TRIES || !closedBeforeAnswer(error)) {
          throw upstreamFailure(upstream, asked, error, waited(), this.timeoutMs, 'before it answered');
        }
      }
    }
    let text: string;
    try {
      text = await response.text();
    } catch (error) {
      throw upstreamFailure(upstream, asked, error, waited(), this.timeoutMs, 'while it sent its answer');
    }
    let answer: (T & { error?: string }) | undefined;
    try {
      answer = text === '' ? undefined : (JSON.parse(text) as T & { error?: string });
    } catch {
      // Not JSON: a 4xx still passes through with its status.
    }
    const failed = (what: string, why = '') =>
      new UpstreamError(
        502,
        `${upstream} answered ${asked} with ${what} after ${waited()} ms${why}`,
        'emulator',
        waited(),
      );
    if (!response.ok) {
      const reason = typeof answer?.error === 'string' ? answer.error : `HTTP ${response.status}`;
      if (response.status >= 400 && response.status < 500)
        throw new UpstreamError(response.status, reason, 'emulator', waited());
      throw failed(`HTTP ${response.status}`, `: ${reason}`);
    }
    if (answer === undefined || typeof answer !== 'object' || answer === null)
      throw failed(text === '' ? 'an empty body' : `${text.length} bytes that are not a JSON object`);
    return answer;
  }

  getRouting(): Promise<RoutingState> {
    return this.call('GET', '/v1/routing');
  }

  getAdaptiveRouting(): Promise<AdaptiveRoutingState> {
    return this.call('GET', '/v1/adaptive-routing');
  }

  setAdaptiveRouting(patch: Partial<AdaptiveRoutingState>): Promise<AdaptiveRoutingState> {
    return this.call('PUT', '/v1/adaptive-routing', patch);
  }

  /** The flows, or those matching a filter (the emulator filters: big patterns are many flows). */
  listFlows(filter: FlowFilter = {}): Promise<{ flows: FlowInfo[] }> {
    const query = new URLSearchParams();
    for (const [key, value] of Object.entries(filter)) if (value !== undefined) query.set(key, value);
    const text = query.toString();
    return this.call('GET', text === '' ? '/v1/flows' : `/v1/flows?${text}`);
  }

  /** A page of the emulator's flows, paged where they are: a new listing's first (`job` its filter), or `from` on. */
  flowsPage(
    limit: number,
    options: { job?: string | undefined; from?: { listing: string; offset: number } | undefined } = {},
  ): Promise<FlowListingPage> {
    const query = new URLSearchParams({ limit: String(limit) });
    if (options.job !== undefined) query.set('job', options.job);
    if (options.from) {
      query.set('listing', options.from.listing);
      query.set('offset', String(options.from.offset));
    }
    return this.call('GET', `/v1/flows?${query}`);
  }

  /** The emulator's jobs: its flows grouped by job name. */
  listJobs(): Promise<{ jobs: EmulatorJob[] }> {
    return this.call('GET', '/v1/jobs');
  }

  /** Any traffic request of docs/architecture.md: what started, and its first `first` flows. */
  startFlows(request: object, first = STARTED_FLOWS_LISTED): Promise<TrafficStarted> {
    return this.call('POST', `/v1/flows?first=${first}`, request);
  }

  listFaults(): Promise<{ faults: FaultInfo[] }> {
    return this.call('GET', '/v1/faults');
  }

  injectFault(request: object): Promise<{ fault: FaultInfo; faults: FaultInfo[] }> {
    return this.call('POST', '/v1/faults', request);
  }

  clearFaults(): Promise<{ faults: FaultInfo[] }> {
    return this.call('DELETE', '/v1/faults');
  }

  stopFlows(): Promise<{ flows: FlowInfo[] }> {
    return this.call('DELETE', '/v1/flows');
  }
}
