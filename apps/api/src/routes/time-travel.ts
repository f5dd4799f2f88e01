import type { CategoryName } from '@fabscope/topology';
import type { ApiContext } from '../context.ts';
import { parseTime } from '../lib/time-params.ts';
import type { FabricSummary, LinkDirectionState } from '../lib/utilization.ts';
import { hasTimeQueries, type TimeQueries } from '../store/time-queries.ts';

/** A store without a history: time questions are answered 409 with this reason (as control without an emulator). */
export class NoHistoryError extends Error {
  override name = 'NoHistoryError';
  readonly statusCode = 409;
  constructor(kind: string) {
    super(`the ${kind} store keeps no history: time travel needs the embedded store or Prometheus`);
  }
}

const cache = new WeakMap<ApiContext, TimeQueries | null>();

/** The store's time queries for this fabric, or null when it keeps no history. */
export function timeQueriesOf(ctx: ApiContext): TimeQueries | null {
  let queries = cache.get(ctx);
  if (queries === undefined) {
    queries = hasTimeQueries(ctx.store) ? ctx.store.timeQueries(ctx.linkIndex) : null;
    cache.set(ctx, queries);
  }
  return queries;
}

function requireQueries(ctx: ApiContext): TimeQueries {
  const queries = timeQueriesOf(ctx);
  if (!queries) throw new NoHistoryError(ctx.store.kind);
  return queries;
}

/** What `/links` asks for, as far as the store can rank it itself. */
export interface LinksRequest {
  sort?: 'utilization' | 'bytesPerSecond' | 'transmitWaitFraction' | 'id' | CategoryName | undefined;
  order?: 'asc' | 'desc' | undefined;
  limit?: number | undefined;
  kind?: 'isl' | 'host' | undefined;
}

/** Orders a store can rank itself at a past instant (categories are live only: not recorded). */
function isStoreRanked(
  sort: LinksRequest['sort'],
): sort is 'utilization' | 'bytesPerSecond' | 'transmitWaitFraction' {
  return sort === 'utilization' || sort === 'bytesPerSecond' || sort === 'transmitWaitFraction';
}

/**
 * The links at `time` (Unix seconds or RFC 3339), or the latest tick when it is absent. A top-N
 * ranking is asked of a store that ranks itself (Prometheus: topk), which then answers only those
 * directions; the caller sorts and cuts what it gets as always.
 */
export async function linksAtTime(
  ctx: ApiContext,
  time: string | undefined,
  request: LinksRequest = {},
  signal?: AbortSignal,
): Promise<{ time: string; links: LinkDirectionState[] }> {
  if (time === undefined) {
    const tick = await ctx.sampler.current();
    return { time: tick.time, links: tick.links };
  }
  const timeMs = parseTime('time', time);
  const queries = requireQueries(ctx);
  const { sort = 'utilization', order = 'desc', limit, kind } = request;
  const at =
    queries.topAt && limit !== undefined && isStoreRanked(sort) && order === 'desc'
      ? await queries.topAt(timeMs, { by: sort, limit, kind }, signal)
      : await queries.linksAt(timeMs, signal);
  return { time: new Date(at.timeMs).toISOString(), links: at.links };
}

/** The summary at `time`, or the latest tick's when it is absent. */
export async function summaryAtTime(
  ctx: ApiContext,
  time: string | undefined,
  signal?: AbortSignal,
): Promise<FabricSummary> {
  if (time === undefined) return (await ctx.sampler.current()).summary;
  return requireQueries(ctx).summaryAt(parseTime('time', time), signal);
}

export { requireQueries };
