import {
  AdaptiveRoutingChangeSchema,
  AdaptiveRoutingPatch,
  AdaptiveRoutingStatusSchema,
  ErrorReply,
} from '@fabscope/contracts';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';

/** Adaptive routing through the fabric manager's provider (emulator, opafm.xml, or none with the reason). */
export const adaptiveRoutingRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const errors = { 400: ErrorReply, 409: ErrorReply, 502: ErrorReply, 504: ErrorReply };

  app.get(
    '/adaptive-routing',
    {
      schema: {
        summary: 'Adaptive routing settings (opafm <AdaptiveRouting>), or {available: false, reason}',
        response: { 200: AdaptiveRoutingStatusSchema, ...errors },
      },
    },
    async () => app.adaptiveRouting.get(),
  );

  app.put(
    '/adaptive-routing',
    {
      config: { mutates: true },
      schema: {
        summary:
          'Change any subset of the adaptive routing settings (opafm.xml: validated by config_check, written, applied); 409 with the reason where the fabric has none',
        body: AdaptiveRoutingPatch,
        response: { 200: AdaptiveRoutingChangeSchema, ...errors },
      },
    },
    async (request) => app.adaptiveRouting.set(request.body, changedBy(request)),
  );
};

/** Who asked, for the event log: the client's address and whether it sent a bearer token. */
function changedBy(request: FastifyRequest): string {
  const token = /^Bearer\s/i.test(request.headers.authorization ?? '');
  return `${request.ip}, ${token ? 'bearer token' : 'no token'}`;
}
