import {
  AdaptiveRoutingPatch,
  AdaptiveRoutingSchema,
  ErrorReply,
  FlowsSchema,
  TrafficRequest,
} from '@fabscope/contracts';
import type { FastifyPluginAsync } from 'fastify';
import type { ApiContext } from '../context.ts';
import { checkTraffic } from '../traffic-check.ts';
import { badRequest, withEmulator } from './with-emulator.ts';

/** Adaptive routing and traffic: forwarded to the emulator, refused cleanly without one. */
export const controlRoutes: FastifyPluginAsync<{ ctx: ApiContext }> = async (app, { ctx }) => {
  // 401, 403, 405 and 413 are added to every route's document by the route policy (http/route-policy.ts).
  const errors = { 400: ErrorReply, 409: ErrorReply, 502: ErrorReply };
  const mutates = { mutates: true };

  app.get(
    '/adaptive-routing',
    {
      schema: {
        summary: 'Adaptive routing settings (opafm <AdaptiveRouting>)',
        response: { 200: AdaptiveRoutingSchema, ...errors },
      },
    },
    (_request, reply) => withEmulator(ctx, reply, (e) => e.getAdaptiveRouting()),
  );

  app.put<{ Body: AdaptiveRoutingPatch }>(
    '/adaptive-routing',
    {
      config: mutates,
      schema: {
        summary: 'Change any subset of the adaptive routing settings',
        body: AdaptiveRoutingPatch,
        response: { 200: AdaptiveRoutingSchema, ...errors },
      },
    },
    (request, reply) => withEmulator(ctx, reply, (e) => e.setAdaptiveRouting(request.body)),
  );

  app.get(
    '/traffic',
    { schema: { summary: 'Flows running in the emulator', response: { 200: FlowsSchema, ...errors } } },
    (_request, reply) => withEmulator(ctx, reply, (e) => e.listFlows()),
  );

  app.post<{ Body: TrafficRequest }>(
    '/traffic',
    {
      config: mutates,
      schema: {
        summary:
          'Start flows: pairs (osu_mbw_mr style), shift k, permutation seed, all-to-all, incast to, bisection, iperf from/to/streams, storage server/clients/op/ioSize; or {items: [...]}',
        body: TrafficRequest,
        response: { 200: FlowsSchema, ...errors },
      },
    },
    (request, reply) => {
      const problem = checkTraffic(ctx.fabric, request.body);
      if (problem) return badRequest(reply, problem);
      return withEmulator(ctx, reply, (e) => e.startFlows(request.body));
    },
  );

  app.delete(
    '/traffic',
    {
      config: mutates,
      schema: { summary: 'Stop every flow', response: { 200: FlowsSchema, ...errors } },
    },
    (_request, reply) => withEmulator(ctx, reply, (e) => e.stopFlows()),
  );
};
