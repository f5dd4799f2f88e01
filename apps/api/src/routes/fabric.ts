import {
  ErrorReply,
  HealthSchema,
  InstantQuery,
  LinksAnswerSchema,
  LinksQuery,
  RouteQuery,
  RouteSchema,
  StaticLoadQuery,
  StaticLoadSchema,
  SummarySchema,
  TopologySchema,
} from '@fabscope/contracts';
import {
  CATEGORY_NAMES,
  type CategoryName,
  NoRouteError,
  summarizeStaticLoad,
  UnknownNodeError,
} from '@fabscope/topology';
import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsync } from 'fastify';
import type { ApiContext } from '../context.ts';
import { sendError } from '../http/errors.ts';
import { flowsNow, listJobs } from '../jobs/context.ts';
import { jobLinks } from '../jobs/job-report.ts';
import { liveRoute } from '../live-route.ts';
import { assertTablesRead, SmTablesNotReadError, tablesAnswer } from '../sm-tables/origin.ts';
import { staticLoadOf } from '../sm-tables/static-load.ts';
import { withJobs } from './jobs.ts';
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

  const LinksAtQuery = Type.Composite([LinksQuery, InstantQuery]);
  app.get<{ Querystring: LinksQuery & InstantQuery }>(
    '/links',
    {
      config: { cache: 'tick' },
      schema: {
        summary:
          'Link directions ranked by utilization (opatop style), throughput, congestion (transmitWaitFraction) or a PM category (integrity, congestion, smaCongestion, bubble, security, routing)',
        querystring: LinksAtQuery,
        response: {
          200: LinksAnswerSchema,
          400: ErrorReply,
          404: ErrorReply,
          502: ErrorReply,
        },
      },
    },
    async (request, reply) => {
      const { sort = 'utilization', order = 'desc', limit, kind, job } = request.query;
      let ofJob: Set<string> | null = null;
      if (job !== undefined) {
        const found = await withJobs(reply, async () => {
          if (!(await listJobs(ctx)).some((j) => j.id === job))
            return sendError(reply, 404, `no job "${job}"`);
          return new Set(jobLinks(await flowsNow(ctx, { job }), job).map((l) => l.id));
        });
        if (!(found instanceof Set)) return found;
        ofJob = found;
      }
      // The job's links are filtered from every direction, not from a top cut before the filter.
      const asked = ofJob ? { ...request.query, limit: undefined } : request.query;
      const tick = await linksAtTime(ctx, request.query.time, asked);
      const category = (CATEGORY_NAMES as readonly string[]).includes(sort) ? (sort as CategoryName) : null;
      const key = (l: (typeof tick.links)[number]): number | string =>
        sort === 'id'
          ? l.id
          : category !== null
            ? (l.categories[category] ?? -1)
            : (l[sort as 'utilization' | 'bytesPerSecond' | 'transmitWaitFraction'] ?? -1);
      const sign = order === 'desc' ? -1 : 1;
      const links = tick.links
        .filter((l) => (!kind || l.kind === kind) && (ofJob === null || ofJob.has(l.id)))
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
