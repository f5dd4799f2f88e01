import type { FastifyInstance } from 'fastify';
import fastifyPlugin from 'fastify-plugin';
import { UpstreamError, upstreamFailure } from '../../emulator-client.ts';
import { NoHistoryError } from '../../errors.ts';
import type { LinkFrame } from '../../lib/frame.ts';
import type { LinkIndex } from '../../lib/link-index.ts';
import type { FabricSummary } from '../../lib/summary.ts';
import { parseTime } from '../../lib/time-params.ts';
import { hasTimeQueries, type TimeQueries } from '../../store/time-queries.ts';
import { type DrawingQueries, queriesAcrossDrawings } from '../../store/time-queries-across.ts';
import type { Drawing } from '../../topology-live/drawn-fabric.ts';

/** What time questions are answered from: the store, the live tick, and the drawings of the fabric. */
type TimeSources = Pick<FastifyInstance, 'store' | 'sampler' | 'fabric'>;

const cache = new WeakMap<LinkIndex, TimeQueries | null>();
const acrossCache = new WeakMap<readonly Drawing[], { version: number; queries: TimeQueries }>();

/** The store's time queries for one drawing of the fabric, or null when it keeps no history. */
function queriesOfIndex(app: TimeSources, index: LinkIndex): TimeQueries | null {
  let queries = cache.get(index);
  if (queries === undefined) {
    queries = hasTimeQueries(app.store) ? app.store.timeQueries(index) : null;
    if (queries && app.store.kind === 'prometheus') queries = namingPrometheus(queries);
    cache.set(index, queries);
  }
  return queries;
}

/** The store's time queries for this fabric, each instant in the drawing of its time; null without history. */
function timeQueriesOf(app: TimeSources): TimeQueries | null {
  const { drawn, linkIndex } = app.fabric;
  const drawings = drawn?.list();
  if (!drawings || drawings.length < 2) return queriesOfIndex(app, linkIndex);
  const version = drawn?.version ?? 0;
  const kept = acrossCache.get(drawings);
  if (kept?.version === version) return kept.queries;
  const parts: DrawingQueries[] = [];
  for (const d of drawings) {
    const queries = queriesOfIndex(app, d.linkIndex);
    if (!queries) return null;
    parts.push({ fromMs: d.fromMs, queries, ids: d.linkIndex.channelById });
  }
  const queries = queriesAcrossDrawings(parts);
  acrossCache.set(drawings, { version, queries });
  return queries;
}

/** Prometheus' time queries with failures said as an upstream's (502, or 504 without an answer in time). */
function namingPrometheus(queries: TimeQueries): TimeQueries {
  return new Proxy(queries, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver);
      if (typeof value !== 'function') return value;
      return async (...args: unknown[]) => {
        const started = performance.now();
        try {
          return await value.apply(target, args);
        } catch (error) {
          throw prometheusFailure(error, String(property), Math.round(performance.now() - started));
        }
      };
    },
  });
}

function prometheusFailure(error: unknown, query: string, waitedMs: number): unknown {
  const e = error as Error & { statusCode?: number; cause?: unknown };
  if (!(e instanceof Error) || (e.statusCode !== undefined && e.statusCode < 500)) return error;
  const asked = `the ${query} query`;
  if (e.name === 'TimeoutError' || (e.name === 'TypeError' && e.cause !== undefined)) {
    return upstreamFailure('Prometheus (PROMETHEUS_URL)', asked, e, waitedMs, waitedMs, 'before it answered');
  }
  if (/^(Prometheus|PromQL)\b/.test(e.message)) {
    return new UpstreamError(
      502,
      `Prometheus failed ${asked} after ${waitedMs} ms: ${e.message}`,
      'Prometheus',
      waitedMs,
    );
  }
  return error;
}

/** Answers about past instants and ranges, each in the drawing of its time; `time` absent: the latest tick's. */
function timeTravelOf(app: TimeSources) {
  /** The store's time queries; NoHistoryError when it keeps none. */
  const require = (): TimeQueries => {
    const queries = timeQueriesOf(app);
    if (!queries) throw new NoHistoryError(app.store.kind);
    return queries;
  };
  /** Every direction at `time` (Unix seconds or RFC 3339) as a frame. */
  const frameAt = async (time: string | undefined): Promise<LinkFrame> =>
    time === undefined ? (await app.sampler.current()).frame : require().frameAt(parseTime('time', time));
  return {
    /** The store's time queries, or null when it keeps no history. */
    queries: () => timeQueriesOf(app),
    require,
    frameAt,
    /** The frame at `time` and its instant as answers name it. */
    async instantFrame(time: string | undefined): Promise<{ time: string; frame: LinkFrame }> {
      if (time !== undefined) {
        const frame = await frameAt(time);
        return { time: new Date(frame.timeMs).toISOString(), frame };
      }
      const tick = await app.sampler.current();
      return { time: tick.time, frame: tick.frame };
    },
    async summaryAt(time: string | undefined): Promise<FabricSummary> {
      if (time === undefined) return (await app.sampler.current()).summary;
      return require().summaryAt(parseTime('time', time));
    },
  };
}

declare module 'fastify' {
  interface FastifyInstance {
    readonly timeTravel: ReturnType<typeof timeTravelOf>;
  }
}

/** Decorates `timeTravel`; the embedded store's history records from the app's start on. */
export const timeTravelPlugin = fastifyPlugin(
  async (app: FastifyInstance) => {
    app.decorate('timeTravel', timeTravelOf(app));
    timeQueriesOf(app);
  },
  { name: 'time-travel', dependencies: ['fabric', 'store'] },
);
