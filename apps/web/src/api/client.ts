import type {
  AdaptiveRouting,
  AdaptiveRoutingChange,
  AdaptiveRoutingStatus,
  Alarm,
  AlarmList,
  Analysis,
  Drift,
  EventList,
  FaultInfo,
  FaultList,
  FaultRequest,
  FindReply,
  FlowList,
  FlowPage,
  HistoryKept,
  JobDetail,
  JobList,
  JobReport,
  LinkFlows,
  LinkHistory,
  LinksAnswer,
  PortReply,
  StaticLoad,
  Summary,
  SummaryHistory,
  Topology,
  TopologyStatus,
  TrafficStarted,
} from '@fabscope/contracts';
import { PAGE_MAX } from '@fabscope/contracts/limits';
import type { CompactDecode } from './exchange/exchange.ts';
import { createRequester, type Requester, type RequesterOptions } from './requester.ts';
import { shareTopologyStrings } from './topologyStrings.ts';
import type { CompactSnapshot, HistoryWindow, Route, StreamView, TrafficRequest } from './types.ts';

function windowQuery(window: HistoryWindow): URLSearchParams {
  return new URLSearchParams({ from: window.from, to: window.to, step: String(window.step) });
}

/** A page of `/links`: the first names its ranking (sort, kind, instant), a later one only its cursor. */
export type LinksPageQuery = { limit: string } & (
  | { sort: string; kind?: string; time?: string }
  | { cursor: string }
);

/** Every link direction at instant `time` (RFC 3339): every page of one list, walked with `next`. */
async function linksAt({ get }: Requester, time: string, signal?: AbortSignal): Promise<LinksAnswer> {
  const limit = String(PAGE_MAX);
  const first = await get<LinksAnswer>(`/api/v1/links?${new URLSearchParams({ time, limit })}`, signal);
  const links = [...first.links];
  for (let next = first.next; next !== undefined; ) {
    const page: LinksAnswer = await get<LinksAnswer>(
      `/api/v1/links?${new URLSearchParams({ cursor: next, limit })}`,
      signal,
    );
    links.push(...page.links);
    next = page.next;
  }
  return { time: first.time, total: first.total, links };
}

/** The topology, its state and drift, adaptive routing, faults, ports and alarms. */
function fabricCalls({ get, live, send }: Requester) {
  return {
    /** The topology, its names shared (api/topologyStrings.ts): the page holds it for its life. */
    getTopology: async (signal?: AbortSignal) =>
      shareTopologyStrings(await get<Topology>('/api/v1/topology', signal)),
    /** Topology version, whether it changed from the one drawn, whether drift is configured. */
    getTopologyStatus: (signal?: AbortSignal) => live<TopologyStatus>('/api/v1/topology/status', signal),
    /** Drift from the intended design: findings held for the stability window. */
    getDrift: (limit: number, signal?: AbortSignal) =>
      get<Drift>(`/api/v1/topology/drift?${new URLSearchParams({ limit: String(limit) })}`, signal),
    /** The settings, or `{available: false, reason}` where the fabric has no adaptive routing to manage. */
    getAdaptiveRouting: (signal?: AbortSignal) =>
      live<AdaptiveRoutingStatus>('/api/v1/adaptive-routing', signal),
    putAdaptiveRouting: (patch: Partial<AdaptiveRouting>, signal?: AbortSignal) =>
      send<AdaptiveRoutingChange>('PUT', '/api/v1/adaptive-routing', patch, signal),
    getFaults: (signal?: AbortSignal) => live<FaultList>('/api/v1/faults', signal),
    injectFault: (body: FaultRequest, signal?: AbortSignal) =>
      send<{ fault: FaultInfo; faults: FaultInfo[] }>('POST', '/api/v1/faults', body, signal),
    clearFaults: (signal?: AbortSignal) => send<FaultList>('DELETE', '/api/v1/faults', undefined, signal),
    /** Find's type-ahead: the best `limit` nodes and ports holding `q`, and how many matched. */
    find: (q: string, limit: number, signal?: AbortSignal) =>
      get<FindReply>(`/api/v1/find?${new URLSearchParams({ q, limit: String(limit) })}`, signal),
    /** A node's ports, or one port in full (both directions, every counter). */
    getPort: (node: string, port: number | undefined, signal?: AbortSignal) =>
      get<PortReply>(
        `/api/v1/port?${new URLSearchParams({ node, ...(port === undefined ? {} : { port: String(port) }) })}`,
        signal,
      ),
    /** Alarms with a lifecycle: the active ones, or (all) and the cleared ones; now, or as they stood at `atMs`. */
    getAlarms: (all: boolean, signal?: AbortSignal, atMs: number | null = null) => {
      const query = new URLSearchParams(all ? { state: 'all' } : {});
      if (atMs !== null) query.set('at', new Date(atMs).toISOString());
      const text = query.toString();
      // The past does not change: asked like any other past answer.
      return (atMs === null ? live : get)<AlarmList>(`/api/v1/alarms${text ? `?${text}` : ''}`, signal);
    },
    acknowledgeAlarm: (id: string, by: string, signal?: AbortSignal) =>
      send<Alarm>('POST', `/api/v1/alarms/${encodeURIComponent(id)}/acknowledge`, { by }, signal),
  };
}

/** Traffic, jobs, routes and what a pattern would contend for. */
function trafficCalls({ get, live, send }: Requester) {
  return {
    /** The first `limit` flows (the largest page by default) and every job's totals. */
    getTraffic: (signal?: AbortSignal, limit = PAGE_MAX) =>
      live<FlowPage>(`/api/v1/traffic?limit=${limit}`, signal),
    /** What started (count, jobs, bytes/s and the first flows); the next getTraffic lists them. */
    startTraffic: (body: TrafficRequest, signal?: AbortSignal) =>
      send<TrafficStarted>('POST', '/api/v1/traffic', body, signal),
    stopTraffic: (signal?: AbortSignal) => send<FlowList>('DELETE', '/api/v1/traffic', undefined, signal),
    getRoute: (from: string, to: string, signal?: AbortSignal) =>
      live<Route>(`/api/v1/route?${new URLSearchParams({ from, to })}`, signal),
    /** Host-to-host paths per switch output port (the tables' static load), beside the load measured now. */
    getStaticLoad: (limit: number, kind: 'isl' | 'host' | null, signal?: AbortSignal) =>
      get<StaticLoad>(
        `/api/v1/routes/static-load?${new URLSearchParams({ limit: String(limit), ...(kind ? { kind } : {}) })}`,
        signal,
      ),
    getAnalysis: (pattern: string, signal?: AbortSignal) =>
      get<Analysis>(`/api/v1/analysis?${new URLSearchParams({ pattern })}`, signal),
    /** Contention of a pattern over `hosts` (a host list or names; all hosts when null), static and with adaptive routing. */
    postAnalysis: (pattern: string, hosts: string | readonly string[] | null, signal?: AbortSignal) =>
      send<Analysis>(
        'POST',
        '/api/v1/analysis',
        hosts === null ? { pattern } : { pattern, nodes: hosts },
        signal,
      ),
    getJobs: (signal?: AbortSignal) => get<JobList>('/api/v1/jobs', signal),
    getJob: (id: string, signal?: AbortSignal) =>
      live<JobDetail>(`/api/v1/jobs/${encodeURIComponent(id)}`, signal),
    /** The jobs whose flows cross an alarm's directions now, most directions first. */
    getJobsAffected: (alarm: string, signal?: AbortSignal) =>
      live<JobList>(`/api/v1/jobs?${new URLSearchParams({ alarm })}`, signal),
    /** A job's fabric report over its run: culprits, victims, its directions, a verdict and evidence. */
    getJobReport: (id: string, signal?: AbortSignal) =>
      get<JobReport>(`/api/v1/jobs/${encodeURIComponent(id)}/report`, signal),
    /** The flows crossing a link direction, with rate and job. */
    getLinkFlows: (id: string, signal?: AbortSignal) =>
      live<LinkFlows>(`/api/v1/links/flows?${new URLSearchParams({ id })}`, signal),
  };
}

/** Past instants, histories and events. */
function historyCalls(requester: Requester) {
  const { get, live, request } = requester;
  return {
    getLinksAt: (time: string, signal?: AbortSignal) => linksAt(requester, time, signal),
    /** One page of a ranked list of `/links`: the first by its query, the next ones by `cursor`. */
    getLinksPage: (query: LinksPageQuery, signal?: AbortSignal) =>
      get<LinksAnswer>(`/api/v1/links?${new URLSearchParams(query)}`, signal),
    /** The fabric at instant `time` as one unchecked stream message of encoding `view`. */
    getInstant: (time: string, view: StreamView, signal?: AbortSignal) =>
      get<unknown>(`/api/v1/instant?${new URLSearchParams({ time, view })}`, signal),
    /** The fabric at instant `time` as one compact message, decoded in the exchange worker. */
    getCompactInstant: (time: string, decode: CompactDecode, signal?: AbortSignal) =>
      request<CompactSnapshot>({
        method: 'GET',
        path: `/api/v1/instant?${new URLSearchParams({ time, view: 'compact' })}`,
        signal,
        decode,
      }),
    getSummaryAt: (time: string, signal?: AbortSignal) =>
      get<Summary>(`/api/v1/summary?${new URLSearchParams({ time })}`, signal),
    /** How much history the store holds: the presets offered. */
    getHistoryKept: (signal?: AbortSignal) => get<HistoryKept>('/api/v1/history/kept', signal),
    getSummaryHistory: (window: HistoryWindow, signal?: AbortSignal) =>
      get<SummaryHistory>(`/api/v1/summary/history?${windowQuery(window)}`, signal),
    /** History of link directions (channel ids); one request for all of them. */
    getLinksHistory: (ids: readonly string[], window: HistoryWindow, signal?: AbortSignal) => {
      const query = windowQuery(window);
      for (const id of ids) query.append('id', id);
      return get<LinkHistory>(`/api/v1/links/history?${query}`, signal);
    },
    /** The newest events of the window, up to a page of PAGE_MAX (pages go back in time). */
    getEvents: (from: string, to: string | null, signal?: AbortSignal) => {
      const path = `/api/v1/events?${new URLSearchParams({ from, ...(to === null ? {} : { to }), limit: String(PAGE_MAX) })}`;
      // Open-ended (up to now), it is a live question asked on the ticks: conditional.
      return to === null ? live<EventList>(path, signal) : get<EventList>(path, signal);
    },
  };
}

/** The typed calls of the fabscope HTTP API (`/api/v1`). */
export function createApiClient(options: RequesterOptions = {}) {
  const requester = createRequester(options);
  return { ...fabricCalls(requester), ...trafficCalls(requester), ...historyCalls(requester) };
}

export type ApiClient = ReturnType<typeof createApiClient>;
