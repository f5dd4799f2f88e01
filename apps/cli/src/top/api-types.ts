/**
 * The parts of the /api/v1 answers `fabscope top` reads (apps/api/src/schemas.ts is the
 * contract; the API package does not export its schemas, so the shapes are restated here and
 * checked on arrival by client.ts).
 */

export interface Health {
  status: string;
  store: string;
  lastSampleAgeSeconds: number | null;
  error?: string;
}

export interface Summary {
  time: string;
  hostTransmitBytesPerSecond: number | null;
  histogram: { isl: number[]; host: number[] };
  staleLinks: number;
}

export interface PortRef {
  node: string;
  port: number;
}

export interface LinkState {
  id: string;
  kind: string;
  from: PortRef;
  to: PortRef;
  utilization: number | null;
  bytesPerSecond: number | null;
  packetsPerSecond: number | null;
  transmitWaitFraction: number | null;
  linkUp: boolean | null;
  stale: boolean;
}

export interface FabricInfo {
  name: string;
  fabricType: string;
}

/** One tick the server keeps (GET /summary/history). */
export interface HistoryPoint {
  time: string;
  hostTransmitBytesPerSecond: number | null;
}

/** One line of GET /events: a fault, a link going down, a routing change. */
export interface FabricEvent {
  time: string;
  text: string;
}

/** Optional endpoints, found by asking (404: the server does not have them). */
export interface Features {
  history: boolean;
  events: boolean;
}

/** Everything one screen is drawn from. */
export interface Snapshot {
  health: Health;
  summary: Summary;
  links: LinkState[];
  /** True when more link directions exist beyond `links` (the server was asked for a limited list). */
  moreLinks: boolean;
  /** Fabric-wide, the link direction whose sender waits most (opatop's Congestion category). */
  mostWaiting: LinkState | null;
  history: HistoryPoint[] | null;
  events: FabricEvent[] | null;
}
