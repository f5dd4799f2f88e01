import {
  ErrorReply,
  LinkHistorySchema,
  LinkRangeQuery,
  RangeQuery,
  SummaryHistorySchema,
} from '@fabscope/contracts';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { sendError } from '../http/errors.ts';
import { parseRange } from '../lib/time-params.ts';
import { requireQueries, timeQueriesOf } from './time-travel.ts';

const iso = (ms: number) => new Date(ms).toISOString();

/** Series over a time range: the host transmit total with histograms, and chosen link directions. */
export const historyRoutes: FastifyPluginAsyncTypebox = async (app) => {
  // Ranges are expensive: a bounded number run at once, the others answered 503 (http/pressure.ts).
  const errors = { 400: ErrorReply, 409: ErrorReply, 502: ErrorReply, 503: ErrorReply, 504: ErrorReply };
  const config = { expensive: true };
  // Directions of every topology drawn (a re-discovered fabric adds some): made once per drawing.
  const knownSets = new WeakMap<object, Set<string>>();
  const isKnown = (id: string) =>
    (app.fabric.drawn?.list() ?? [{ linkIndex: app.fabric.linkIndex }]).some(({ linkIndex }) => {
      let ids = knownSets.get(linkIndex);
      if (!ids) {
        ids = new Set(linkIndex.channels.map((c) => c.fixed.id));
        knownSets.set(linkIndex, ids);
      }
      return ids.has(id);
    });
  // Now, not at the first question: the embedded store's history records from here on.
  timeQueriesOf(app);

  app.get(
    '/summary/history',
    {
      config,
      schema: {
        summary: 'Host transmit total and utilization histograms from `from` to `to` every `step`',
        querystring: RangeQuery,
        response: { 200: SummaryHistorySchema, ...errors },
      },
    },
    async (request) => {
      const queries = requireQueries(app);
      const range = parseRange(request.query, { nowMs: Date.now(), defaultStepMs: queries.resolutionMs });
      const points = await queries.summaryRange(range);
      return {
        points: points.map((p) => ({
          time: iso(p.timeMs),
          hostTransmitBytesPerSecond: p.hostTransmitBytesPerSecond,
          histogram: p.histogram,
        })),
      };
    },
  );

  app.get(
    '/links/history',
    {
      config,
      schema: {
        summary: 'Utilization, throughput and XmitWait of link directions (`id`, repeated) over a range',
        querystring: LinkRangeQuery,
        response: { 200: LinkHistorySchema, ...errors, 404: ErrorReply },
      },
    },
    async (request, reply) => {
      const unknown = request.query.id.find((id) => !isKnown(id));
      if (unknown !== undefined) {
        return sendError(
          reply,
          404,
          `unknown link direction "${unknown}" (ids look like "edge1/4->core2/1")`,
        );
      }
      const queries = requireQueries(app);
      const ids = [...new Set(request.query.id)];
      const range = parseRange(request.query, {
        nowMs: Date.now(),
        defaultStepMs: queries.resolutionMs,
        // The limit is on the answer: every series counts.
        maxPoints: Math.floor(11_000 / ids.length),
      });
      const series = await queries.linkRange(ids, range);
      return {
        series: series.map((s) => ({
          id: s.id,
          points: s.points.map((p) => ({
            time: iso(p.timeMs),
            utilization: p.utilization,
            bytesPerSecond: p.bytesPerSecond,
            transmitWaitFraction: p.transmitWaitFraction,
          })),
        })),
      };
    },
  );
};
