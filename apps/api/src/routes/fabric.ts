import { describeRoute, findNode, NoRouteError, routeBetween, UnknownNodeError } from '@fabscope/topology';
import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsync } from 'fastify';
import type { ApiContext } from '../context.ts';
import { InstantQuery } from '../schemas/time.ts';
import {
  ErrorReply,
  HealthSchema,
  LinkStateSchema,
  LinksQuery,
  RouteQuery,
  RouteSchema,
  SummarySchema,
  TopologySchema,
} from '../schemas.ts';
import { linksAtTime, summaryAtTime } from './time-travel.ts';

/** Read-only views of the fabric: health, topology, link rankings, summary, routes. */
export const fabricRoutes: FastifyPluginAsync<{ ctx: ApiContext }> = async (app, { ctx }) => {
  app.get(
    '/health',
    { schema: { summary: 'Store kind and age of the newest sample', response: { 200: HealthSchema } } },
    async () => (await ctx.sampler.current()).health,
  );

  const topology = {
    name: ctx.fabric.name,
    fabricType: ctx.fabric.fabricType,
    nodes: ctx.fabric.nodes.map((n) => ({
      name: n.name,
      type: n.type,
      tier: n.tier,
      guid: n.guid,
      lid: n.lid,
    })),
    links: ctx.fabric.links.map((l) => ({ id: l.id, kind: l.kind, a: l.a, b: l.b, rateGbps: l.rateGbps })),
  };
  app.get(
    '/topology',
    { schema: { summary: 'Nodes and cables of the fabric', response: { 200: TopologySchema } } },
    async () => topology,
  );

  const LinksAtQuery = Type.Composite([LinksQuery, InstantQuery]);
  app.get<{ Querystring: LinksQuery & InstantQuery }>(
    '/links',
    {
      schema: {
        summary:
          'Link directions ranked by utilization (opatop style), throughput or congestion (transmitWaitFraction)',
        querystring: LinksAtQuery,
        response: {
          200: Type.Object({ time: Type.String(), links: Type.Array(LinkStateSchema) }),
          400: ErrorReply,
        },
      },
    },
    async (request) => {
      const { sort = 'utilization', order = 'desc', limit, kind } = request.query;
      const tick = await linksAtTime(ctx, request.query.time, request.query);
      const key = (l: (typeof tick.links)[number]): number | string =>
        sort === 'id' ? l.id : (l[sort] ?? -1);
      const sign = order === 'desc' ? -1 : 1;
      const links = tick.links
        .filter((l) => !kind || l.kind === kind)
        .sort((a, b) => {
          const ka = key(a);
          const kb = key(b);
          // Unknown (stale) values sort last whichever the order.
          if (ka === -1 && kb !== -1) return 1;
          if (kb === -1 && ka !== -1) return -1;
          return ka < kb ? -sign : ka > kb ? sign : a.id < b.id ? -1 : 1;
        });
      return { time: tick.time, links: limit ? links.slice(0, limit) : links };
    },
  );

  app.get<{ Querystring: InstantQuery }>(
    '/summary',
    {
      schema: {
        summary: 'Host throughput and utilization histogram, now or at `time`',
        querystring: InstantQuery,
        response: { 200: SummarySchema, 400: ErrorReply },
      },
    },
    async (request) => summaryAtTime(ctx, request.query.time),
  );

  app.get<{ Querystring: RouteQuery }>(
    '/route',
    {
      schema: {
        summary: 'Static route between two hosts, from the forwarding tables',
        querystring: RouteQuery,
        response: { 200: RouteSchema, 400: ErrorReply },
      },
    },
    async (request, reply) => {
      try {
        const from = findNode(ctx.fabric, request.query.from).name;
        const to = findNode(ctx.fabric, request.query.to).name;
        return {
          engine: ctx.tables.engine,
          ...describeRoute(ctx.fabric, routeBetween(ctx.fabric, ctx.tables, from, to)),
        };
      } catch (error) {
        if (error instanceof UnknownNodeError || error instanceof NoRouteError) {
          return reply.code(400).send({ statusCode: 400, error: 'Bad Request', message: error.message });
        }
        throw error;
      }
    },
  );
};
