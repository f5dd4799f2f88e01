import type { LinkDirectionState, LinkHistoryPoint, SummaryHistory } from '@fabscope/contracts';
import { utilizationOf } from '@fabscope/topology';
import type { FabricEvent } from '../lib/fabric-event.ts';
import type { LinkFrame } from '../lib/frame.ts';
import type { LinkIndex } from '../lib/link-index.ts';
import type { FabricSummary } from '../lib/summary.ts';
import type { TimeRange } from '../lib/time-params.ts';

/** The fabric as it was at one instant: every link direction, and the summary of them. */
export interface FabricAt {
  /** The instant asked for (Unix ms). */
  timeMs: number;
  links: LinkDirectionState[];
}

/** A point of `/summary/history` and of `/links/history` with its time in ms (the route writes it as ISO). */
export type SummaryPoint = Omit<SummaryHistory['points'][number], 'time'> & { timeMs: number };
export type LinkPoint = Omit<LinkHistoryPoint, 'time'> & { timeMs: number };

/** A direction's point from its bytes/s (its utilization of `capacity`), XmitWait share and errors/s; null: unknown. */
export function linkPoint(
  timeMs: number,
  bytesPerSecond: number | null,
  capacity: number,
  transmitWaitFraction: number | null,
  errorsPerSecond: number | null = null,
): LinkPoint {
  return {
    timeMs,
    utilization: utilizationOf(bytesPerSecond, capacity),
    bytesPerSecond,
    transmitWaitFraction,
    errorsPerSecond,
  };
}

export interface LinkSeries {
  id: string;
  points: LinkPoint[];
}

/** One direction's series as columns: utilization and XmitWait share at each time, NaN where unknown. */
export interface LinkColumn {
  id: string;
  timesMs: Float64Array;
  utilization: Float64Array;
  transmitWaitFraction: Float64Array;
}

/**
 * Questions about the past, answered by the store where the data is: the state at an instant,
 * and series over a range at a step. Direction ids are those of the topology (LinkIndex).
 */
/** How much history a store holds: what `/history/kept` answers, so the dashboard offers only ranges it has. */
export interface HistoryKept {
  /** How far back it keeps (its capacity); null where a TSDB's own retention decides. */
  seconds: number | null;
  /** The oldest instant held now; null when none, or not known here. */
  oldestMs: number | null;
  /** Whether it survives a restart (FABSCOPE_DATA_DIR, or a TSDB). */
  onDisk: boolean;
}

export interface TimeQueries {
  /** The finest step that carries information (the sampling interval): the default step. */
  readonly resolutionMs: number;
  /** How much history it holds; absent: a TSDB's (its retention decides). */
  kept?(): HistoryKept;
  /** Events the store derives from its series (link state, counter resets), when it does. */
  events?(fromMs: number, toMs: number, signal?: AbortSignal): Promise<FabricEvent[]>;
  /**
   * Every link direction at `timeMs` as a frame (lib/frame.ts, in the index's channel order): the newest values at or
   * before it that were not stale, unknown (NaN, −1) where there are none.
   */
  frameAt(timeMs: number, signal?: AbortSignal): Promise<LinkFrame>;
  /** Every link direction at `timeMs` as objects: `statesOf(frameAt(timeMs))`. */
  linksAt(timeMs: number, signal?: AbortSignal): Promise<FabricAt>;
  /** The summary at `timeMs` (the sampler's summary, as it was then). */
  summaryAt(timeMs: number, signal?: AbortSignal): Promise<FabricSummary>;
  summaryRange(range: TimeRange, signal?: AbortSignal): Promise<SummaryPoint[]>;
  /** One series per id, in the order asked; ids are known directions (the route checks them). */
  linkRange(ids: readonly string[], range: TimeRange, signal?: AbortSignal): Promise<LinkSeries[]>;
  /** `linkRange` as columns, without an object per point (thousands of directions over hours: a job's report). */
  linkColumns?(ids: readonly string[], range: TimeRange, signal?: AbortSignal): Promise<LinkColumn[]>;
}

/** A store that can answer time questions about a fabric. */
export interface WithTimeQueries {
  /** Null when this store keeps no history for the fabric's series. */
  timeQueries(index: LinkIndex): TimeQueries | null;
}

export function hasTimeQueries(store: object): store is WithTimeQueries {
  return typeof (store as Partial<WithTimeQueries>).timeQueries === 'function';
}
