import {
  AdaptiveRoutingChangeSchema,
  AdaptiveRoutingPatch,
  AdaptiveRoutingStatusSchema,
  ErrorReply,
  FlowsSchema,
  TrafficRequest,
} from '@fabscope/contracts';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { ApiContext } from '../context.ts';
import { UpstreamError } from '../emulator-client.ts';
import { adaptiveRoutingOf } from '../fabric-manager/choose-provider.ts';
import { ProviderError } from '../fabric-manager/provider.ts';
import { sendError } from '../http/errors.ts';
import { checkTraffic } from '../traffic-check.ts';
import { badRequest, withEmulator } from './with-emulator.ts';

/**
 * Adaptive routing, through the fabric manager's provider (the emulator's, the site's opafm.xml, or
 * none, with the reason); traffic: forwarded to the emulator, refused cleanly without one.
 */
export const controlRoutes: FastifyPluginAsync<{ ctx: ApiContext }> = async (app, { ctx }) => {
  // 401, 403, 405 and 413 are added to every route's document by the route policy (http/route-policy.ts).
  const errors = { 400: ErrorReply, 409: ErrorReply, 502: ErrorReply };
  const mutates = { mutates: true };

  app.get(
    '/adaptive-routing',
    {
      schema: {
        summary: 'Adaptive routing settings (opafm <AdaptiveRouting>), or {available: false, reason}',
        response: { 200: AdaptiveRoutingStatusSchema, ...errors },
      },
    },
    (_request, reply) => fromProvider(reply, () => adaptiveRoutingOf(ctx).get()),
  );

  app.put<{ Body: AdaptiveRoutingPatch }>(
    '/adaptive-routing',
    {
      config: mutates,
      schema: {
        summary:
          'Change any subset of the adaptive routing settings (opafm.xml: validated by config_check, written, applied); 409 with the reason where the fabric has none',
        body: AdaptiveRoutingPatch,
        response: { 200: AdaptiveRoutingChangeSchema, ...errors },
      },
    },
    (request, reply) =>
      fromProvider(reply, () => adaptiveRoutingOf(ctx).set(request.body, changedBy(request))),
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

/** The provider's answer, or its refusal (ProviderError, the emulator's UpstreamError) as an error body. */
async function fromProvider<T>(reply: FastifyReply, action: () => Promise<T>) {
  try {
    return await action();
  } catch (error) {
    if (error instanceof ProviderError || error instanceof UpstreamError) {
      return sendError(reply, error.statusCode, error.message);
    }
    throw error;
  }
}

/**
 * Who asked, for the event log: the client's address and whether it sent a bearer token (beyond
 * loopback the route policy has checked it; on loopback none is needed and it is not checked).
 */
function changedBy(request: FastifyRequest): string {
  const token = /^Bearer\s/i.test(request.headers.authorization ?? '');
  return `${request.ip}, ${token ? 'bearer token' : 'no token'}`;
}
