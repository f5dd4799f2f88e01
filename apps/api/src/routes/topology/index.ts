import { ErrorReply, type Topology, TopologySchema, TopologyTimeQuery } from '@fabscope/contracts';
import type { Fabric } from '@fabscope/topology';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { NotFoundError } from '../../errors.ts';
import { parseTime } from '../../lib/time-params.ts';

/** The schema's serializer writes only its fields of the fabric, its nodes and its links. */
function topologyAnswer(fabric: Fabric): Topology {
  // Mixed fabrics name each cable's network where it differs; left out otherwise to keep big topologies small.
  const links = fabric.links.map((l) => ({
    ...l,
    fabricType: l.fabricType !== fabric.fabricType ? l.fabricType : undefined,
  }));
  return { ...fabric, links };
}

/** `/topology?time=T`: the version in force at T; 404 before the history kept or in the future (answers are cached). */
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

/** The topology drawn, or the version in force at an instant. */
export const topologyRoutes: FastifyPluginAsyncTypebox = async (app) => {
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
};
