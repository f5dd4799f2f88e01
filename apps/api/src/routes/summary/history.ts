import { HistoryKeptSchema, RangeQuery, SummaryHistorySchema } from '@fabscope/contracts';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorReplies } from '../../http/errors.ts';
import { parseRange } from '../../lib/time-params.ts';

/** The fabric's summary as series over a range. */
export const summaryHistoryRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/summary/history',
    {
      config: { expensive: true },
      schema: {
        summary: 'Host transmit total and utilization histograms from `from` to `to` every `step`',
        querystring: RangeQuery,
        response: {
          200: SummaryHistorySchema,
          ...errorReplies(400, 409, 502, 503, 504),
        },
      },
    },
    async (request) => {
      const queries = app.timeTravel.require();
      const range = parseRange(request.query, { nowMs: Date.now(), defaultStepMs: queries.resolutionMs });
      const points = await queries.summaryRange(range);
      return {
        points: points.map((p) => ({ ...p, time: new Date(p.timeMs).toISOString() })),
      };
    },
  );

  app.get(
    '/history/kept',
    {
      schema: {
        summary:
          'How much history the store holds: how far back it keeps, the oldest instant held, on disk or not',
        response: { 200: HistoryKeptSchema, ...errorReplies(409) },
      },
    },
    async () => {
      const queries = app.timeTravel.require();
      const kept = queries.kept?.() ?? { seconds: null, oldestMs: null, onDisk: true };
      return {
        store: app.store.kind,
        seconds: kept.seconds,
        oldest: kept.oldestMs === null ? null : new Date(kept.oldestMs).toISOString(),
        onDisk: kept.onDisk,
      };
    },
  );
};
