import type {
  Health as ApiHealth,
  Summary as ApiSummary,
  LinkDirectionState,
  SummaryPoint,
} from '@fabscope/contracts';

/** Subsets of the API's shapes, since top also reads older servers; client.ts checks them. */
export type Health = Pick<ApiHealth, 'status' | 'store' | 'lastSampleAgeSeconds' | 'error'>;
export type Summary = Pick<
  ApiSummary,
  'time' | 'hostTransmitBytesPerSecond' | 'histogram' | 'staleLinks' | 'categories'
>;
export type LinkState = Pick<
  LinkDirectionState,
  | 'id'
  | 'kind'
  | 'from'
  | 'to'
  | 'utilization'
  | 'bytesPerSecond'
  | 'packetsPerSecond'
  | 'transmitWaitFraction'
  | 'linkUp'
  | 'stale'
> &
  Partial<Pick<LinkDirectionState, 'categories'>>;

export interface FabricInfo {
  name: string;
  fabricType: string;
}

/** One tick the server keeps (GET /summary/history). */
export type HistoryPoint = Pick<SummaryPoint, 'time' | 'hostTransmitBytesPerSecond'>;

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
  /** The instant this snapshot answers (the view's `time` when asked), null for live. */
  askedTime: string | null;
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
