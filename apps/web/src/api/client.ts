import { type CompactDecode, type ExchangeAnswer, NetworkFailure } from './exchange.ts';
import { fetchExchange } from './fetchExchange.ts';
import { shareTopologyStrings } from './topologyStrings.ts';
import type {
  AdaptiveRouting,
  AdaptiveRoutingChange,
  AdaptiveRoutingStatus,
  Alarm,
  AlarmList,
  Analysis,
  CompactSnapshot,
  Drift,
  ErrorBody,
  EventList,
  Fault,
  FaultList,
  FaultRequest,
  FlowList,
  FlowPage,
  HistoryWindow,
  JobDetail,
  JobList,
  LinkFlows,
  LinkHistory,
  LinksAnswer,
  PortReply,
  Route,
  StaticLoad,
  StreamView,
  Summary,
  SummaryHistory,
  Topology,
  TopologyStatus,
  TrafficRequest,
  TrafficStarted,
} from './types.ts';
import { workerExchange } from './workerExchange.ts';

/** The most rows a page of the API holds (PAGE_MAX of the contract, which the web imports types of only). */
const PAGE_MAX = 5000;

/**
 * A failed API call, with a message fit to show the user as is. `status` is the HTTP status, or 0
 * when the API could not be reached or answered something that is not JSON.
 */
export class ApiError extends Error {
  /** A 503's Retry-After: the API is busy and says when to ask again. */
  retryAfterSeconds: number | undefined;
  constructor(
    message: string,
    readonly status: number,
    readonly code: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** A refused GET is asked again this many times at most, and only after a wait of at most this. */
const MAX_ATTEMPTS = 12;
const MAX_RETRY_AFTER_S = 30;

/** Resolves after `ms`, or rejects as an abort when `signal` fires first. */
function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason ?? new DOMException('aborted', 'AbortError'));
      return;
    }
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(signal.reason ?? new DOMException('aborted', 'AbortError'));
      },
      { once: true },
    );
  });
}

export interface ApiClientOptions {
  /** Prefix of every path; '' for the same origin. */
  baseUrl?: string;
  fetch?: typeof fetch;
  /** Bearer token for mutating requests, read at each call (it may change in Settings). */
  getToken?: () => string | null;
}

type Method = 'GET' | 'PUT' | 'POST' | 'DELETE';

function isErrorBody(value: unknown): value is ErrorBody {
  return typeof value === 'object' && value !== null && typeof (value as ErrorBody).error === 'string';
}

/** Turns an HTTP error answer into an ApiError with a readable message. */
export function errorFromResponse(status: number, body: unknown, hadToken: boolean): ApiError {
  const detail = isErrorBody(body) ? (body.message ?? body.error) : undefined;
  const code = isErrorBody(body) ? body.error : `http_${status}`;
  if (status === 401) {
    const hint = hadToken
      ? 'The API rejected the API token. Check it in Settings.'
      : 'This API requires a token for changes. Enter the API token in Settings.';
    return new ApiError(`Unauthorized (401): ${hint}`, status, code);
  }
  if (status === 403) {
    return new ApiError(
      `Forbidden (403): ${detail ?? 'the API token may not make this change.'}`,
      status,
      code,
    );
  }
  const text = detail ?? (status >= 500 ? 'the API failed to answer' : 'the request was refused');
  return new ApiError(
    `${status >= 500 ? 'Server error' : 'Request failed'} (${status}): ${text}`,
    status,
    code,
  );
}

function windowQuery(window: HistoryWindow): URLSearchParams {
  return new URLSearchParams({ from: window.from, to: window.to, step: String(window.step) });
}

export function createApiClient(options: ApiClientOptions = {}) {
  const baseUrl = options.baseUrl ?? '';
  const doFetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  const getToken = options.getToken ?? (() => null);
  const pageExchange = fetchExchange(doFetch);
  // Reads run in a worker in the browser (its fetch, the body, JSON.parse), changes on the page;
  // a client given its own fetch (tests, scripts) runs every exchange through it.
  const readExchange = options.fetch ? pageExchange : workerExchange(pageExchange);

  /**
   * A GET the API refused for a while (503 with Retry-After: busy at fabric size, its expensive
   * routes waiting) is asked again after the time it names — up to 12 tries, about a minute at the 5 s the API names — before the error shows.
   */
  async function request<T>(
    method: Method,
    path: string,
    body?: unknown,
    signal?: AbortSignal,
    conditional = false,
    decode?: CompactDecode,
  ): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await requestOnce<T>(method, path, body, signal, conditional, decode);
      } catch (error) {
        const wait = error instanceof ApiError ? error.retryAfterSeconds : undefined;
        if (method !== 'GET' || wait === undefined || wait > MAX_RETRY_AFTER_S || attempt >= MAX_ATTEMPTS) {
          throw error;
        }
        await sleep(wait * 1000, signal);
      }
    }
  }

  /**
   * A live GET's last answer and its ETag, by path: asked again, the API answers 304 when nothing
   * changed, and the same object is given again without a body read or parsed (the dashboard
   * re-asks flows, alarms and the topology's status on stream ticks; at fat-tree-27648 the flows
   * are 1.8 MB). The browser's own cache would answer a 304 with the body parsed anew.
   */
  const answers = new Map<string, { etag: string; value: unknown }>();

  /**
   * The newest decoded compact message by path (the last two paths), with its number: asked again,
   * an answer decoded from the same text is this very object (a past instant re-read unchanged
   * re-renders nothing).
   */
  const decodedAnswers = new Map<string, { decoded: number; value: unknown }>();

  /** A live answer, asked again on ticks: conditional on the answer held. */
  const live = <T>(path: string, signal?: AbortSignal): Promise<T> =>
    request<T>('GET', path, undefined, signal, true);

  async function requestOnce<T>(
    method: Method,
    path: string,
    body: unknown,
    signal: AbortSignal | undefined,
    conditional: boolean,
    decode?: CompactDecode,
  ): Promise<T> {
    const headers: Record<string, string> = { Accept: 'application/json' };
    const token = method === 'GET' ? null : getToken();
    if (token) headers.Authorization = `Bearer ${token}`;
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    const held = conditional ? answers.get(path) : undefined;
    if (held) headers['If-None-Match'] = held.etag;
    const heldDecoded = decode ? decodedAnswers.get(path) : undefined;
    let answer: ExchangeAnswer;
    try {
      answer = await (method === 'GET' ? readExchange : pageExchange)(
        {
          method,
          url: `${baseUrl}${path}`,
          headers,
          body: body === undefined ? null : JSON.stringify(body),
          noStore: conditional,
          ...(decode ? { decode: { ...decode, held: heldDecoded?.decoded } } : {}),
        },
        signal,
      );
    } catch (error) {
      if (!(error instanceof NetworkFailure)) throw error;
      throw new ApiError(`Cannot reach the API (${method} ${path}): ${error.text}`, 0, 'network');
    }
    if (held && answer.status === 304) return held.value as T;
    if (answer.ok && answer.body.kind === 'text') {
      throw new ApiError(`The API answered ${method} ${path} with something that is not JSON`, 0, 'parse');
    }
    // A compact message that did not decode: what compactSnapshotOf said of it.
    if (answer.body.kind === 'invalid') throw new Error(answer.body.message);
    if (answer.body.kind === 'unchanged') {
      if (heldDecoded && answer.decoded === heldDecoded.decoded) return heldDecoded.value as T;
      throw new Error(`The answer to ${path} was said unchanged from one this page does not hold`);
    }
    const parsed = answer.body.kind === 'json' ? answer.body.value : null;
    if (!answer.ok) {
      const error = errorFromResponse(answer.status, parsed, token !== null && token !== '');
      const retryAfter = Number(answer.retryAfter);
      if (answer.status === 503 && Number.isFinite(retryAfter) && retryAfter >= 0) {
        error.retryAfterSeconds = retryAfter;
      }
      throw error;
    }
    if (decode && answer.decoded !== undefined) {
      decodedAnswers.delete(path);
      decodedAnswers.set(path, { decoded: answer.decoded, value: parsed });
      for (const oldest of decodedAnswers.keys()) {
        if (decodedAnswers.size <= 2) break;
        decodedAnswers.delete(oldest);
      }
    }
    if (conditional) {
      const etag = answer.etag;
      if (etag) answers.set(path, { etag, value: parsed });
      else answers.delete(path);
    }
    return parsed as T;
  }

  return {
    /** The topology, its names shared (lib/topologyStrings.ts): the page holds it for its life. */
    getTopology: async (signal?: AbortSignal) =>
      shareTopologyStrings(await request<Topology>('GET', '/api/v1/topology', undefined, signal)),
    /** The settings, or `{available: false, reason}` where the fabric has no adaptive routing to manage. */
    getAdaptiveRouting: (signal?: AbortSignal) =>
      live<AdaptiveRoutingStatus>('/api/v1/adaptive-routing', signal),
    putAdaptiveRouting: (patch: Partial<AdaptiveRouting>, signal?: AbortSignal) =>
      request<AdaptiveRoutingChange>('PUT', '/api/v1/adaptive-routing', patch, signal),
    // The largest page the API gives (5,000 flows): the Traffic panel groups them by job and the
    // contention check measures every analysed flow of fabrics up to that many hosts in one read.
    /** The first `limit` flows (the largest page by default) and every job's totals. */
    getTraffic: (signal?: AbortSignal, limit = PAGE_MAX) =>
      live<FlowPage>(`/api/v1/traffic?limit=${limit}`, signal),
    /** What started (count, jobs, bytes/s and the first flows); the next getTraffic lists them. */
    startTraffic: (body: TrafficRequest, signal?: AbortSignal) =>
      request<TrafficStarted>('POST', '/api/v1/traffic', body, signal),
    stopTraffic: (signal?: AbortSignal) => request<FlowList>('DELETE', '/api/v1/traffic', undefined, signal),
    getRoute: (from: string, to: string, signal?: AbortSignal) =>
      live<Route>(`/api/v1/route?${new URLSearchParams({ from, to })}`, signal),
    /** Host-to-host paths per switch output port (the tables' static load), beside the load measured now. */
    getStaticLoad: (limit: number, kind: 'isl' | 'host' | null, signal?: AbortSignal) =>
      request<StaticLoad>(
        'GET',
        `/api/v1/routes/static-load?${new URLSearchParams({ limit: String(limit), ...(kind ? { kind } : {}) })}`,
        undefined,
        signal,
      ),
    getAnalysis: (pattern: string, signal?: AbortSignal) =>
      request<Analysis>('GET', `/api/v1/analysis?${new URLSearchParams({ pattern })}`, undefined, signal),
    /** Contention of a pattern over `hosts` (a host list or names; all hosts when null), static and with adaptive routing. */
    postAnalysis: (pattern: string, hosts: string | readonly string[] | null, signal?: AbortSignal) =>
      request<Analysis>(
        'POST',
        '/api/v1/analysis',
        hosts === null ? { pattern } : { pattern, nodes: hosts },
        signal,
      ),
    getJobs: (signal?: AbortSignal) => request<JobList>('GET', '/api/v1/jobs', undefined, signal),
    getJob: (id: string, signal?: AbortSignal) =>
      live<JobDetail>(`/api/v1/jobs/${encodeURIComponent(id)}`, signal),
    /** The flows crossing a link direction, with rate and job. */
    getLinkFlows: (id: string, signal?: AbortSignal) =>
      live<LinkFlows>(`/api/v1/links/flows?${new URLSearchParams({ id })}`, signal),
    getFaults: (signal?: AbortSignal) => live<FaultList>('/api/v1/faults', signal),
    injectFault: (body: FaultRequest, signal?: AbortSignal) =>
      request<{ fault: Fault; faults: Fault[] }>('POST', '/api/v1/faults', body, signal),
    clearFaults: (signal?: AbortSignal) => request<FaultList>('DELETE', '/api/v1/faults', undefined, signal),
    /** Every link direction at instant `time` (RFC 3339): every page of one list, walked with `next`. */
    getLinksAt: async (time: string, signal?: AbortSignal): Promise<LinksAnswer> => {
      const pageSize = String(PAGE_MAX);
      const first = await request<LinksAnswer>(
        'GET',
        `/api/v1/links?${new URLSearchParams({ time, limit: pageSize })}`,
        undefined,
        signal,
      );
      const links = [...first.links];
      for (let next = first.next; next !== undefined; ) {
        const page: LinksAnswer = await request<LinksAnswer>(
          'GET',
          `/api/v1/links?${new URLSearchParams({ cursor: next, limit: pageSize })}`,
          undefined,
          signal,
        );
        links.push(...page.links);
        next = page.next;
      }
      return { time: first.time, total: first.total, links };
    },
    /**
     * The fabric at instant `time` (RFC 3339) as one stream message of encoding `view`, unchecked:
     * `compactSnapshotOf` / `snapshotOf` (api/stream.ts) check it as they check the stream's.
     */
    getInstant: (time: string, view: StreamView, signal?: AbortSignal) =>
      request<unknown>('GET', `/api/v1/instant?${new URLSearchParams({ time, view })}`, undefined, signal),
    /**
     * The fabric at instant `time` as one compact message, checked and decoded as `decode` says
     * where it is parsed (the exchange worker: compactDecode.ts), with its tier summary when asked.
     */
    getCompactInstant: (time: string, decode: CompactDecode, signal?: AbortSignal) =>
      request<CompactSnapshot>(
        'GET',
        `/api/v1/instant?${new URLSearchParams({ time, view: 'compact' })}`,
        undefined,
        signal,
        false,
        decode,
      ),
    getSummaryAt: (time: string, signal?: AbortSignal) =>
      request<Summary>('GET', `/api/v1/summary?${new URLSearchParams({ time })}`, undefined, signal),
    getSummaryHistory: (window: HistoryWindow, signal?: AbortSignal) =>
      request<SummaryHistory>('GET', `/api/v1/summary/history?${windowQuery(window)}`, undefined, signal),
    /** History of link directions (channel ids); one request for all of them. */
    getLinksHistory: (ids: readonly string[], window: HistoryWindow, signal?: AbortSignal) => {
      const query = windowQuery(window);
      for (const id of ids) query.append('id', id);
      return request<LinkHistory>('GET', `/api/v1/links/history?${query}`, undefined, signal);
    },
    /** The newest events of the window, up to a page of PAGE_MAX (pages go back in time). */
    /** Topology version, whether it changed from the one drawn, whether drift is configured. */
    getTopologyStatus: (signal?: AbortSignal) => live<TopologyStatus>('/api/v1/topology/status', signal),
    /** Drift from the intended design: findings held for the stability window. */
    getDrift: (limit: number, signal?: AbortSignal) =>
      request<Drift>(
        'GET',
        `/api/v1/topology/drift?${new URLSearchParams({ limit: String(limit) })}`,
        undefined,
        signal,
      ),
    /** A node's ports, or one port in full (both directions, every counter). */
    getPort: (node: string, port: number | undefined, signal?: AbortSignal) =>
      request<PortReply>(
        'GET',
        `/api/v1/port?${new URLSearchParams({ node, ...(port === undefined ? {} : { port: String(port) }) })}`,
        undefined,
        signal,
      ),
    /** Alarms with a lifecycle: the active ones, or (all) and the cleared ones. */
    getAlarms: (all: boolean, signal?: AbortSignal) =>
      live<AlarmList>(`/api/v1/alarms${all ? '?state=all' : ''}`, signal),
    acknowledgeAlarm: (id: string, by: string, signal?: AbortSignal) =>
      request<Alarm>('POST', `/api/v1/alarms/${encodeURIComponent(id)}/acknowledge`, { by }, signal),
    getEvents: (from: string, to: string | null, signal?: AbortSignal) => {
      const path = `/api/v1/events?${new URLSearchParams({ from, ...(to === null ? {} : { to }), limit: String(PAGE_MAX) })}`;
      // Open-ended (up to now), it is a live question asked on the ticks: conditional.
      return to === null ? live<EventList>(path, signal) : request<EventList>('GET', path, undefined, signal);
    },
  };
}

export type ApiClient = ReturnType<typeof createApiClient>;

/** A readable message for anything an API call may throw. */
export function describeError(error: unknown): string {
  if (error instanceof ApiError) return error.message;
  if (error instanceof Error) return error.message;
  return String(error);
}
