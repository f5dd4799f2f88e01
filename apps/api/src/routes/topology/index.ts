import {
  DriftQuery,
  DriftSchema,
  ErrorReply,
  type Topology,
  TopologyChangesQuery,
  TopologyChangesSchema,
  TopologySchema,
  TopologyStatusSchema,
  TopologyTimeQuery,
} from '@fabscope/contracts';
import type { Fabric } from '@fabscope/topology';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { NotFoundError } from '../../errors.ts';
import { parseTime, TimeParamError } from '../../lib/time-params.ts';

/** `/topology`'s answer for a fabric. */
function topologyAnswer(fabric: Fabric): Topology {
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
const NO_VERSIONS = 'this API keeps no topology versions';

function topologyAtTime(app: Pick<FastifyInstance, 'topologyLive' | 'fabric'>, time: string): Topology {
  const ms = parseTime('time', time);
  const at = new Date(ms).toISOString();
  if (ms > Date.now()) throw new NotFoundError(`no topology recorded at ${at}: it is still to come`);
  const live = app.topologyLive;
  if (!live) return topologyAnswer(app.fabric.fabric);
  const found = live.fabricAt(ms);
  if (!found) {
    const from = new Date(live.historyFromMs()).toISOString();
    throw new NotFoundError(`no topology recorded at ${at}: the history starts at ${from}`);
  }
  return topologyAnswer(found.fabric);
}

/** The topology drawn or in force at an instant, its versions over time and its drift (topology-live/). */
export const topologyRoutes: FastifyPluginAsyncTypebox = async (app) => {
  // The drawn fabric's answer, made once per drawing (the answer cache keeps its bytes).
  const answers = new WeakMap<Fabric, Topology>();
  const topology = () => {
    const { fabric, drawn } = app.fabric;
    let answer = answers.get(fabric);
    if (!answer) {
      const version = drawn?.version ?? 0;
      answer = { ...topologyAnswer(fabric), ...(version > 0 ? { version } : {}) };
      answers.set(fabric, answer);
    }
    return answer;
  };
  app.get(
    '/topology',
    {
      config: { cache: 'static' },
      schema: {
        summary:
          'Nodes and cables of the fabric the API runs on, or (time) the topology version in force then',
        querystring: TopologyTimeQuery,
        response: { 200: TopologySchema, 400: ErrorReply, 404: ErrorReply },
      },
    },
    async (request) =>
      request.query.time === undefined ? topology() : topologyAtTime(app, request.query.time),
  );

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
