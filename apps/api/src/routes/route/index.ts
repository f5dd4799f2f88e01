import { ErrorReply, RouteQuery, RouteSchema } from '@fabscope/contracts';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { liveRoute } from '../../live-route.ts';

/** The route between two hosts as traffic takes it now. */
export const routeRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/route',
    {
      schema: {
        summary:
          'Route between two hosts as traffic takes it now (a running flow’s path after adaptive routing and sweeps; else the forwarding tables), with the static route beside it when they differ and each hop’s live load',
        querystring: RouteQuery,
        response: { 200: RouteSchema, 400: ErrorReply, 404: ErrorReply, 503: ErrorReply },
      },
    },
    async (request) => liveRoute(app, request.query.from, request.query.to),
  );
};
