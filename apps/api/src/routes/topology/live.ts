import {
  DriftQuery,
  DriftSchema,
  ErrorReply,
  TopologyChangesQuery,
  TopologyChangesSchema,
  TopologyStatusSchema,
} from '@fabscope/contracts';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { NotFoundError } from '../../errors.ts';
import { parseTime, TimeParamError } from '../../lib/time-params.ts';
import { NO_INTENDED_DESIGN } from '../../topology-live/answers.ts';

const NO_VERSIONS = 'this API keeps no topology versions';

/** The topology over time and its drift from the intended design (topology-live/). */
export const topologyLiveRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/topology/status',
    {
      schema: {
        summary:
          'Whether the topology is re-discovered, its version, whether it changed from the one loaded (and drawn), and drift',
        response: { 200: TopologyStatusSchema, 404: ErrorReply },
      },
    },
    async () => {
      if (!app.topologyLive) throw new NotFoundError(NO_VERSIONS);
      return app.topologyLive.status();
    },
  );

  app.get(
    '/topology/changes',
    {
      schema: {
        summary: 'Topology changes between two instants: each version recorded, with its changes',
        querystring: TopologyChangesQuery,
        response: { 200: TopologyChangesSchema, 400: ErrorReply, 404: ErrorReply },
      },
    },
    async (request) => {
      const live = app.topologyLive;
      if (!live) throw new NotFoundError(NO_VERSIONS);
      const fromMs = parseTime('from', request.query.from);
      const toMs = request.query.to === undefined ? Date.now() : parseTime('to', request.query.to);
      if (toMs < fromMs) throw new TimeParamError('to is before from');
      return live.changes(fromMs, toMs, request.query.limit ?? 1000);
    },
  );

  app.get(
    '/topology/drift',
    {
      schema: {
        summary:
          'Drift from the intended design (FABSCOPE_EXPECTED_TOPOLOGY): missing, extra and miswired links, wrong speeds or widths, missing and extra nodes — each once it has held for the stability window',
        querystring: DriftQuery,
        response: { 200: DriftSchema, 400: ErrorReply },
      },
    },
    async (request) => {
      const limit = request.query.limit ?? 100;
      if (!app.topologyLive) return NO_INTENDED_DESIGN;
      return app.topologyLive.drift({ limit, kind: request.query.kind });
    },
  );
};
