import type {
  AdaptiveRouting,
  EmulatorJob,
  FaultInfo,
  FlowFilter,
  FlowInfo,
  RoutingState,
} from '@fabscope/contracts';

/** The emulator's v1 shapes, from the one contract (packages/contracts). */
export type { EmulatorJob, FaultInfo, FlowFilter, FlowInfo, RoutingState };
export type AdaptiveRoutingState = AdaptiveRouting;

/**
 * Drives the emulator over its HTTP interface, the way the API would drive a fabric manager.
 * Errors keep the emulator's status and reason so the API can pass a 4xx through.
 */
export class UpstreamError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
  ) {
    super(message);
    this.name = 'UpstreamError';
  }
}

export class EmulatorClient {
  constructor(
    readonly baseUrl: string,
    private readonly timeoutMs = 5000,
    /** Sent as a bearer token: an emulator listening beyond loopback refuses changes without it. */
    private readonly token?: string,
  ) {}

  private async call<T>(method: string, path: string, body?: unknown): Promise<T> {
    let response: Response;
    try {
      const headers: Record<string, string> = {};
      if (this.token) headers.authorization = `Bearer ${this.token}`;
      const init: RequestInit = { method, headers, signal: AbortSignal.timeout(this.timeoutMs) };
      if (body !== undefined) {
        init.body = JSON.stringify(body);
        headers['content-type'] = 'application/json';
      }
      response = await fetch(new URL(path, this.baseUrl), init);
    } catch (error) {
      throw new UpstreamError(502, `emulator at ${this.baseUrl} unreachable: ${(error as Error).message}`);
    }
    const answer = (await response.json().catch(() => ({}))) as T & { error?: string };
    if (!response.ok) {
      const status = response.status >= 400 && response.status < 500 ? response.status : 502;
      throw new UpstreamError(status, answer.error ?? `emulator answered HTTP ${response.status}`);
    }
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

  /** The emulator's jobs: its flows grouped by job name. */
  listJobs(): Promise<{ jobs: EmulatorJob[] }> {
    return this.call('GET', '/v1/jobs');
  }

  /** Any traffic request of docs/architecture.md (`pairs`, `shift`, …, or `{items: […]}`). */
  startFlows(request: object): Promise<{ flows: FlowInfo[] }> {
    return this.call('POST', '/v1/flows', request);
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
