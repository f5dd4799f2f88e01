import { ErrorReply, InstantQuery, SummarySchema } from '@fabscope/contracts';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';

/** The fabric's summary now or at an instant. */
export const summaryRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/summary',
    {
      config: { cache: 'tick' },
      schema: {
        summary: 'Host throughput and utilization histogram, now or at `time`',
        querystring: InstantQuery,
        response: { 200: SummarySchema, 400: ErrorReply },
      },
    },
    async (request) => app.timeTravel.summaryAt(request.query.time),
  );
};
