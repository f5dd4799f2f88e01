import {
  DriftQuery,
  DriftSchema,
  ErrorReply,
  type Topology,
  TopologyChangesQuery,
  TopologyChangesSchema,
  TopologyStatusSchema,
} from '@fabscope/contracts';
import type { Fabric } from '@fabscope/topology';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { sendError } from '../http/errors.ts';
import { parseTime, TimeParamError } from '../lib/time-params.ts';

/** `/topology`'s answer for a fabric. */
export function topologyAnswer(fabric: Fabric): Topology {
  return {
    name: fabric.name,
    fabricType: fabric.fabricType,
    nodes: fabric.nodes.map((n) => ({ name: n.name, type: n.type, tier: n.tier, guid: n.guid, lid: n.lid })),
    links: fabric.links.map((l) => ({
      id: l.id,
      kind: l.kind,
      a: l.a,
      b: l.b,
      rateGbps: l.rateGbps,
      // Mixed fabrics name the network of each cable not of the fabric's type (the dashboard uses
      // each network's own terms); left out otherwise, so big fabrics' topology does not grow.
      ...(l.fabricType && l.fabricType !== fabric.fabricType ? { fabricType: l.fabricType } : {}),
    })),
  };
}

/**
 * `/topology?time=T`: the topology version in force at T; 404 outside the history kept — before
 * it starts, or a time still to come (whose answer a later discovery could change, and answers
 * are cached as the topology's are).
 */
export function topologyAtTime(
  app: Pick<FastifyInstance, 'topologyLive' | 'fabric'>,
  time: string,
  reply: FastifyReply,
  nowMs = Date.now(),
) {
  let ms: number;
  try {
    ms = parseTime('time', time);
  } catch (error) {
    if (error instanceof TimeParamError) return sendError(reply, 400, error.message);
    throw error;
  }
  if (ms > nowMs)
    return sendError(
      reply,
      404,
      `no topology recorded at ${new Date(ms).toISOString()}: it is still to come`,
    );
  const live = app.topologyLive;
  if (!live) return topologyAnswer(app.fabric.fabric);
  const found = live.fabricAt(ms);
  if (!found) {
    return sendError(
      reply,
      404,
      `no topology recorded at ${new Date(ms).toISOString()}: the history starts at ${new Date(live.historyFromMs()).toISOString()}`,
    );
  }
  return topologyAnswer(found.fabric);
}

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
    async (_request, reply) => {
      if (!app.topologyLive) return sendError(reply, 404, 'this API keeps no topology versions');
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
    async (request, reply) => {
      const live = app.topologyLive;
      if (!live) return sendError(reply, 404, 'this API keeps no topology versions');
      let fromMs: number;
      let toMs: number;
      try {
        fromMs = parseTime('from', request.query.from);
        toMs = request.query.to === undefined ? Date.now() : parseTime('to', request.query.to);
      } catch (error) {
        if (error instanceof TimeParamError) return sendError(reply, 400, error.message);
        throw error;
      }
      if (toMs < fromMs) return sendError(reply, 400, 'to is before from');
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
      if (!app.topologyLive) {
        return {
          configured: false,
          reason: 'no intended design: set FABSCOPE_EXPECTED_TOPOLOGY to a topology file',
          stableSeconds: 0,
          total: 0,
          pending: 0,
          findings: [],
        };
      }
      return app.topologyLive.drift({ limit, kind: request.query.kind });
    },
  );
};
