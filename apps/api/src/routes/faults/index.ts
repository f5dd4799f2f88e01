import { ErrorReply, FaultAppliedSchema, FaultRequest, FaultsSchema } from '@fabscope/contracts';
import { namesCable } from '@fabscope/contracts/names';
import { channelFrom } from '@fabscope/topology';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { InvalidRequestError, NotFoundError } from '../../errors.ts';
import { emulatorOf } from '../../plugins/app/emulator.ts';

/** Fault injection in the emulator, the active faults, and repair of everything; names checked against the topology. */
export const faultRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const errors = { 400: ErrorReply, 409: ErrorReply, 502: ErrorReply };
  const mutates = { mutates: true };

  /** What the fabric lacks is 404 (a link, a node, a cabled port); a node of the wrong kind 400. */
  const check = (body: FaultRequest): void => {
    const { fabric } = app.fabric;
    if (body.link !== undefined && !fabric.links.some((l) => namesCable(l.id, body.link as string))) {
      throw new NotFoundError(`unknown link "${body.link}" (ids look like "edge1/4--core2/1")`);
    }
    if (body.node === undefined) return;
    const node = fabric.nodeByName.get(body.node);
    if (!node) throw new NotFoundError(`unknown node "${body.node}"`);
    if (body.port !== undefined && channelFrom(fabric, node, body.port) < 0) {
      throw new NotFoundError(`"${body.node}" port ${body.port} is not cabled`);
    }
    if ((body.type === 'switch-down' || body.type === 'switch-up') && node.type !== 'switch') {
      throw new InvalidRequestError(`"${body.node}" is a ${node.type}, not a switch`);
    }
  };

  app.get(
    '/faults',
    { schema: { summary: 'Active faults in the emulator', response: { 200: FaultsSchema, ...errors } } },
    async () => emulatorOf(app).listFaults(),
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
    async (request) => {
      check(request.body);
      return emulatorOf(app).injectFault(request.body);
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
    async () => emulatorOf(app).clearFaults(),
  );
};
