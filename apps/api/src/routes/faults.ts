import { ErrorReply, FaultAppliedSchema, FaultRequest, FaultsSchema } from '@fabscope/contracts';
import { channelFrom } from '@fabscope/topology';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { sendError } from '../http/errors.ts';
import type { Refusal } from '../traffic-check.ts';
import { withEmulator } from './with-emulator.ts';

/**
 * Fault injection in the emulator (`POST /faults`), the active faults (`GET`), and repair of
 * everything (`DELETE`). Node, port and link names are checked against the topology first.
 */
export const faultRoutes: FastifyPluginAsyncTypebox = async (app) => {
  // 401, 403, 405 and 413 are added to every route's document by the route policy (http/route-policy.ts).
  const errors = { 400: ErrorReply, 409: ErrorReply, 502: ErrorReply };
  const mutates = { mutates: true };

  /** What the fabric lacks is 404 (a link, a node, a cabled port); a node of the wrong kind 400. */
  const check = (body: FaultRequest): Refusal | null => {
    const { fabric } = app.fabric;
    if (body.link !== undefined && !fabric.links.some((l) => l.id === body.link)) {
      return { statusCode: 404, message: `unknown link "${body.link}" (ids look like "edge1/4--core2/1")` };
    }
    if (body.node === undefined) return null;
    const node = fabric.nodeByName.get(body.node);
    if (!node) return { statusCode: 404, message: `unknown node "${body.node}"` };
    if (body.port !== undefined && channelFrom(fabric, node, body.port) < 0) {
      return { statusCode: 404, message: `"${body.node}" port ${body.port} is not cabled` };
    }
    if ((body.type === 'switch-down' || body.type === 'switch-up') && node.type !== 'switch') {
      return { statusCode: 400, message: `"${body.node}" is a ${node.type}, not a switch` };
    }
    return null;
  };

  app.get(
    '/faults',
    { schema: { summary: 'Active faults in the emulator', response: { 200: FaultsSchema, ...errors } } },
    (_request, reply) => withEmulator(app.emulator, reply, (e) => e.listFaults()),
  );

  app.post(
    '/faults',
    {
      config: mutates,
      schema: {
        summary:
          'Inject a fault: link-down/up, flap (period, downFor), symbol-errors (rate/s), switch-down/up, restart, clear-counters',
        body: FaultRequest,
        response: { 200: FaultAppliedSchema, ...errors, 404: ErrorReply },
      },
    },
    (request, reply) => {
      const problem = check(request.body);
      if (problem) {
        sendError(reply, problem.statusCode, problem.message);
        return;
      }
      return withEmulator(app.emulator, reply, (e) => e.injectFault(request.body));
    },
  );

  app.delete(
    '/faults',
    {
      config: mutates,
      schema: {
        summary: 'Repair everything: links and switches up, flapping and errors stopped',
        response: { 200: FaultsSchema, ...errors },
      },
    },
    (_request, reply) => withEmulator(app.emulator, reply, (e) => e.clearFaults()),
  );
};
