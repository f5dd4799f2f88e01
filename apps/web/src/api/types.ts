/**
 * Response shapes of the fabscope HTTP API (`/api/v1`). The web app talks to the API over HTTP
 * only, so these are declared here rather than imported from the server's packages.
 * Units: utilization is a fraction 0..1, rates are bytes (or packets) per second.
 */

export type FabricType = 'omnipath' | 'infiniband' | 'ethernet';
export type NodeType = 'host' | 'switch' | 'router';
export type LinkKind = 'host' | 'isl';

export interface PortRef {
  node: string;
  port: number;
}

export interface TopologyNode {
  name: string;
  type: NodeType;
  /** 0 for hosts (and routers), 1 edge, 2 core, … */
  tier: number;
  guid: string;
  lid: number;
}

export interface TopologyLink {
  /** `a/port--b/port` */
  id: string;
  kind: LinkKind;
  a: PortRef;
  b: PortRef;
  rateGbps: number;
}

export interface Topology {
  name: string;
  fabricType: FabricType;
  nodes: TopologyNode[];
  links: TopologyLink[];
}

export type StoreKind = 'embedded' | 'prometheus';

export interface Health {
  status: string;
  store: StoreKind;
  /** Seconds since the newest sample the store holds, at the time the message was sent. */
  lastSampleAgeSeconds: number | null;
  /** The server's sampling tick and staleness limit (its one staleness policy). */
  intervalMs?: number;
  staleAfterSeconds?: number;
}

export interface UtilizationHistogram {
  /** Ten buckets: 0–10 %, 10–20 %, … 90–100 %. */
  isl: number[];
  host: number[];
}

export interface Summary {
  time: string;
  hostTransmitBytesPerSecond: number | null;
  histogram: UtilizationHistogram;
  /** Link directions without a fresh sample. */
  staleLinks?: number;
}

/** One direction of a link (a channel). */
export interface LinkSample {
  /** Channel id `from/port->to/port` */
  id: string;
  /** Link id `a/port--b/port` */
  linkId: string;
  kind: LinkKind;
  from: PortRef;
  to: PortRef;
  capacityBytesPerSecond: number;
  utilization: number | null;
  bytesPerSecond: number | null;
  packetsPerSecond: number | null;
  /** XmitWait ticks per second at the sending port, when known. */
  transmitWaitTicksPerSecond?: number | null;
  /** Share of time 0..1 the sending port had data and no credit (XmitWait); null when unknown. */
  transmitWaitFraction: number | null;
  /** false when the link is down, true when active, null when no end reports a link state. */
  linkUp: boolean | null;
  stale: boolean;
}

/** What every stream encoding carries. */
export interface StreamTick {
  time: string;
  health: Health;
  summary: Summary;
}

/** One Server-Sent Events `message` of `/api/v1/stream`: a sampling tick. */
export interface FabricSnapshot extends StreamTick {
  links: LinkSample[];
}

/**
 * One message of `/api/v1/stream?view=compact`, for big fabrics. Channel c is link ⌊c/2⌋ of the
 * topology, a→b when c is even, b→a when odd; null is unknown (stale).
 */
export interface CompactSnapshot extends StreamTick {
  /** Fraction 0..1 per channel, rounded to 1e-4. */
  utilization: (number | null)[];
  bytesPerSecond: (number | null)[];
  /** XmitWait share of time 0..1 per channel, rounded to 1e-4; null when unknown. */
  waitFraction: (number | null)[];
  /** Channels whose link is down. */
  linkDown: number[];
  /** The busiest 50 ISL and 50 host-link directions, busiest first. */
  top: LinkSample[];
}

export type StreamView = 'full' | 'compact';

export type LiveSnapshot = FabricSnapshot | CompactSnapshot;

export function isCompact(snapshot: LiveSnapshot): snapshot is CompactSnapshot {
  return 'utilization' in snapshot;
}

export type ArAlgorithm = 0 | 1 | 2;

export interface AdaptiveRouting {
  enabled: boolean;
  /** 0 firmware default, 1..7 = 100, 90, 80, 70, 65, 60, 55 % ISL load. */
  threshold: number;
  algorithm: ArAlgorithm;
  /** At least 2^n × 64 ms between adjustments. */
  arFrequency: number;
  lostRouteOnly: boolean;
}

export interface Flow {
  id: string;
  from: string;
  to: string;
  bytesPerSecond: number;
  /** Channel ids crossed, in order. */
  path: string[];
}

export interface FlowList {
  flows: Flow[];
}

/** A POST /api/v1/traffic body (the patterns the dashboard starts; the API takes more). */
export type TrafficRequest =
  | { pattern: 'pairs'; pairs: [string, string][] }
  | { pattern: 'shift'; k: number }
  | { pattern: 'permutation'; seed: number }
  | { pattern: 'all-to-all' }
  | { pattern: 'incast'; to: string }
  | { pattern: 'bisection' };

/** One hop of GET /api/v1/route, as `opareport -o route` lists them. */
export interface RouteHop {
  node: string;
  type?: string;
  guid?: string;
  inPort?: number;
  outPort?: number;
  /** Channel leaving this hop (absent at the destination). */
  link?: string;
  rateGbps?: number;
}

export interface RouteLatency {
  latencyNs: number;
  endpointsNs: number;
  switchesNs: number;
  routersNs: number;
  cablesNs: number;
}

export interface Route {
  from: string;
  to: string;
  engine?: string;
  slid?: number;
  dlid?: number;
  hops: RouteHop[];
  /** Channel ids crossed, in order. */
  links: string[];
  bottleneckGbps?: number;
  latencyNs?: number;
  latency?: RouteLatency;
}

/** GET /api/v1/analysis: contention of a traffic pattern under static routing. */
export interface Analysis {
  pattern: string;
  engine: string;
  flowCount: number;
  routedCount: number;
  maxLinkLoad: number;
  maxIslLoad: number;
  aggregateGbps: number;
  minFlowGbps: number;
  links: { link: string; kind: string; flows: number; capacityGbps: number; usedGbps: number }[];
  collisions: { link: string; pairs: [string, string][] }[];
  flows: { from: string; to: string; rateGbps: number; hops: number }[];
  unroutable: { from: string; to: string; reason: string }[];
  truncated: boolean;
}

export type FaultType =
  | 'link-down'
  | 'link-up'
  | 'flap'
  | 'symbol-errors'
  | 'switch-down'
  | 'switch-up'
  | 'restart'
  | 'clear-counters';

/** A POST /api/v1/faults body. */
export interface FaultRequest {
  type: FaultType;
  /** Link id `a/port--b/port`. */
  link?: string;
  node?: string;
  port?: number;
  /** symbol-errors: errors per second (0 stops them). */
  rate?: number;
  period?: number;
  downFor?: number;
}

/** An active fault in the emulator. */
export interface Fault {
  id: string;
  type: string;
  /** Link id, node, or node/port. */
  target: string;
  sinceMs: number;
  period?: number;
  downFor?: number;
  rate?: number;
}

export interface FaultList {
  faults: Fault[];
}

/** Error body of every 4xx/5xx answer. */
export interface ApiErrorBody {
  error: string;
  message?: string;
}

/** GET /api/v1/links (optionally `?time=`): link directions at one sampling tick. */
export interface LinksAnswer {
  time: string;
  links: LinkSample[];
}

/** One point of GET /api/v1/summary/history; null where unknown. */
export interface SummaryPoint {
  time: string;
  hostTransmitBytesPerSecond: number | null;
  histogram: UtilizationHistogram | null;
}

export interface SummaryHistory {
  points: SummaryPoint[];
}

/** One point of a link direction's history; null where unknown. */
export interface LinkHistoryPoint {
  time: string;
  utilization: number | null;
  bytesPerSecond: number | null;
  transmitWaitFraction: number | null;
}

export interface LinkHistory {
  series: { id: string; points: LinkHistoryPoint[] }[];
}

export type FabricEventKind = 'adaptive-routing' | 'traffic' | 'fault' | 'link-state' | 'counter-reset';

/** One entry of GET /api/v1/events: what changed on the fabric, and when. */
export interface FabricEvent {
  time: string;
  kind: FabricEventKind | string;
  subject: string;
  detail: string;
}

export interface EventList {
  events: FabricEvent[];
}

/** A query window of the history endpoints; instants as RFC 3339, step in whole seconds. */
export interface HistoryWindow {
  from: string;
  to: string;
  step: number;
}
