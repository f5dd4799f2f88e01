/** The API's shapes, types only from packages/contracts; utilization 0..1, rates per second. */

import type {
  CompactStreamMessage,
  FullStreamMessage,
  Route as RouteAnswer,
  TrafficItem,
} from '@fabscope/contracts';

/** What every stream encoding carries. */
export type StreamTick = Pick<FullStreamMessage, 'time' | 'health' | 'summary'>;

/** Per channel in topology order (c is link ⌊c/2⌋, a→b when even); NaN is unknown, never 0. */
export type ChannelValues = Float64Array;

/** One compact stream message with its per-channel arrays as ChannelValues. */
export type CompactSnapshot = Omit<
  CompactStreamMessage,
  'utilization' | 'bytesPerSecond' | 'waitFraction'
> & {
  utilization: ChannelValues;
  bytesPerSecond: ChannelValues;
  waitFraction: ChannelValues;
  /** The load per tier and pod, made in the stream's worker when the page draws the tier view. */
  tiers?: TierSummary;
  /** Channels without a utilization, counted in the worker so the page need not walk them. */
  unknownChannels?: number;
};
export type StreamView = 'full' | 'compact';
export type LiveSnapshot = FullStreamMessage | CompactSnapshot;

/** A route as the dashboard highlights it: the API's answer, named in the drawing's legend. */
export type Route = RouteAnswer & {
  /** What the drawing's legend calls this highlight; default `route FROM → TO`. */
  label?: string;
};

/** A POST /api/v1/traffic body: one traffic item (the patterns the dashboard starts), maybe with a job. */
export type TrafficRequest = TrafficItem & { job?: string };

/** A query window of the history endpoints; instants as RFC 3339, step in whole seconds. */
export interface HistoryWindow {
  from: string;
  to: string;
  step: number;
}

/** A tier pair and direction of a fabric summarized per tier (lib/tierGroups.ts). */
export interface TierRowInfo {
  /** e.g. "hosts → edge". */
  label: string;
  lowTier: number;
  highTier: number;
  direction: 'up' | 'down';
}

/** The load of some link directions in one tick (lib/tierLoad.ts). */
export interface LoadStats {
  directions: number;
  /** Directions with a known utilization. */
  known: number;
  mean: number | null;
  max: number | null;
  /** Directions at 80 % or more. */
  hot: number;
  bytesPerSecond: number | null;
  /** Largest XmitWait share of time (congestion) among the directions; null when none is known. */
  maxWait: number | null;
  /** Directions with errors or integrity past threshold; null when no error counters are known. */
  withErrors: number | null;
}

export interface PodStats {
  name: string;
  hosts: number;
  switches: number;
  isl: LoadStats;
  host: LoadStats;
}

export interface TierSummary {
  rows: (TierRowInfo & LoadStats)[];
  /** Pods, hottest ISL first (then by name). */
  pods: PodStats[];
}
