import {
  ErrorReply,
  HealthSchema,
  InstantQuery,
  RouteQuery,
  RouteSchema,
  StaticLoadQuery,
  StaticLoadSchema,
  SummarySchema,
  TopologySchema,
} from '@fabscope/contracts';
import { NoRouteError, summarizeStaticLoad, UnknownNodeError } from '@fabscope/topology';
import type { FastifyPluginAsync } from 'fastify';
import type { ApiContext } from '../context.ts';
import { sendError } from '../http/errors.ts';
import { liveRoute } from '../live-route.ts';
import { assertTablesRead, SmTablesNotReadError, tablesAnswer } from '../sm-tables/origin.ts';
import { staticLoadOf } from '../sm-tables/static-load.ts';
import { summaryAtTime } from './time-travel.ts';

/** Read-only views of the fabric: health, topology, summary, routes (link rankings: links.ts). */
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
    links: ctx.fabric.links.map((l) => ({
      id: l.id,
      kind: l.kind,
      a: l.a,
      b: l.b,
      rateGbps: l.rateGbps,
      // Mixed fabrics name the network of each cable not of the fabric's type (the dashboard uses
      // each network's own terms); left out otherwise, so big fabrics' topology does not grow.
      ...(l.fabricType && l.fabricType !== ctx.fabric.fabricType ? { fabricType: l.fabricType } : {}),
    })),
  };
  app.get(
    '/topology',
    {
      config: { cache: 'static' },
      schema: { summary: 'Nodes and cables of the fabric', response: { 200: TopologySchema } },
    },
    async () => topology,
  );

  app.get<{ Querystring: InstantQuery }>(
    '/summary',
    {
      config: { cache: 'tick' },
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
        summary:
          'Route between two hosts as traffic takes it now (a running flow’s path after adaptive routing and sweeps; else the forwarding tables), with the static route beside it when they differ and each hop’s live load',
        querystring: RouteQuery,
        response: { 200: RouteSchema, 400: ErrorReply, 503: ErrorReply },
      },
    },
    async (request, reply) => {
      try {
        return await liveRoute(ctx, request.query.from, request.query.to);
      } catch (error) {
        if (error instanceof UnknownNodeError || error instanceof NoRouteError) {
          return reply.code(400).send({ statusCode: 400, error: 'Bad Request', message: error.message });
        }
        if (error instanceof SmTablesNotReadError) return sendError(reply, 503, error.message);
        throw error;
      }
    },
  );

  app.get<{ Querystring: StaticLoadQuery }>(
    '/routes/static-load',
    {
      schema: {
        summary:
          'Static route load (ibdiagnet -r): host-to-host paths the forwarding tables send through each switch output port; the busiest ports and the fewest, most and mean per switch tier and direction',
        querystring: StaticLoadQuery,
        response: { 200: StaticLoadSchema, 400: ErrorReply, 503: ErrorReply },
      },
    },
    async (request, reply) => {
      try {
        assertTablesRead(ctx.tablesOrigin);
      } catch (error) {
        if (error instanceof SmTablesNotReadError) return sendError(reply, 503, error.message);
        throw error;
      }
      const { tables, tablesOrigin } = ctx;
      const { load, computeMs } = await staticLoadOf(ctx.fabric, tables);
      const { groups, top } = summarizeStaticLoad(ctx.fabric, load, request.query.limit ?? 20);
      return {
        tables: tablesAnswer(tablesOrigin, tables.engine, Date.now()),
        engine: tables.engine,
        sources: load.sources,
        destinations: load.destinations,
        routed: load.routed,
        unrouted: load.unrouted,
        looping: load.looping,
        computeMs,
        groups,
        ports: top,
      };
    },
  );
};
