import {
  ErrorReply,
  HealthSchema,
  InstantQuery,
  PortQuery,
  PortReplySchema,
  RouteQuery,
  RouteSchema,
  StaticLoadQuery,
  StaticLoadSchema,
  SummarySchema,
  type Topology,
  TopologySchema,
  TopologyTimeQuery,
} from '@fabscope/contracts';
import {
  channelFrom,
  type Fabric,
  findNode,
  NoRouteError,
  summarizeStaticLoad,
  UnknownNodeError,
} from '@fabscope/topology';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { sendError } from '../http/errors.ts';
import { type LinkFrame, stateAt } from '../lib/frame.ts';
import { liveRoute } from '../live-route.ts';
import { assertTablesRead, SmTablesNotReadError, tablesAnswer } from '../sm-tables/origin.ts';
import { staticLoadOf } from '../sm-tables/static-load.ts';
import { summaryAtTime } from './time-travel.ts';
import { topologyAnswer, topologyAtTime } from './topology-live.ts';

/** Read-only views of the fabric: health, topology, summary, routes (link rankings: links.ts). */
export const fabricRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/health',
    { schema: { summary: 'Store kind and age of the newest sample', response: { 200: HealthSchema } } },
    async () => {
      const { health } = await app.sampler.current();
      // A topology discovered since the start that differs from the one drawn is said here.
      return app.topologyLive ? { ...health, topology: app.topologyLive.healthNote() } : health;
    },
  );

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
    async (request, reply) =>
      request.query.time === undefined ? topology() : topologyAtTime(app, request.query.time, reply),
  );

  app.get(
    '/summary',
    {
      config: { cache: 'tick' },
      schema: {
        summary: 'Host throughput and utilization histogram, now or at `time`',
        querystring: InstantQuery,
        response: { 200: SummarySchema, 400: ErrorReply },
      },
    },
    async (request) => summaryAtTime(app, request.query.time),
  );

  app.get(
    '/route',
    {
      schema: {
        summary:
          'Route between two hosts as traffic takes it now (a running flow’s path after adaptive routing and sweeps; else the forwarding tables), with the static route beside it when they differ and each hop’s live load',
        querystring: RouteQuery,
        response: { 200: RouteSchema, 400: ErrorReply, 404: ErrorReply, 503: ErrorReply },
      },
    },
    async (request, reply) => {
      try {
        return await liveRoute(app, request.query.from, request.query.to);
      } catch (error) {
        // A node the fabric does not have, or no route between the two: nothing to answer with.
        if (error instanceof UnknownNodeError || error instanceof NoRouteError)
          return sendError(reply, 404, error.message);
        if (error instanceof SmTablesNotReadError) return sendError(reply, 503, error.message);
        throw error;
      }
    },
  );

  app.get(
    '/port',
    {
      schema: {
        summary:
          "A node's cabled ports, or one port: its neighbour, rate, state and both directions with every counter rate and PM category at the live tick",
        querystring: PortQuery,
        response: { 200: PortReplySchema, 400: ErrorReply, 404: ErrorReply },
      },
    },
    async (request, reply) => {
      const { fabric } = app.fabric;
      let node: ReturnType<typeof findNode>;
      try {
        node = findNode(fabric, request.query.node);
      } catch (error) {
        if (error instanceof UnknownNodeError) return sendError(reply, 404, error.message);
        throw error;
      }
      const tick = await app.sampler.current();
      // The tick's directions are in the fabric's channel order when it is of this drawing: this
      // port's two are made from its frame, not the tick's every direction.
      const frame = tick.frame.linkUp.length === fabric.links.length * 2 ? tick.frame : null;
      const wanted = request.query.port;
      if (wanted !== undefined && !node.ports[wanted])
        return sendError(reply, 404, `${node.name} has no cabled port ${wanted}`);
      const ports = [];
      for (let p = 0; p < node.ports.length; p++) {
        if ((wanted !== undefined && p !== wanted) || !node.ports[p]) continue;
        const out = channelFrom(fabric, node, p);
        if (out < 0) continue;
        const link = fabric.links[out >> 1] as (typeof fabric.links)[number];
        const neighbour = link.a.node === node.name && link.a.port === p ? link.b : link.a;
        const outState = frame ? stateAt(frame, out) : null;
        const inState = frame ? stateAt(frame, out ^ 1) : null;
        ports.push({
          port: p,
          neighbour: { node: neighbour.node, port: neighbour.port },
          linkId: link.id,
          kind: link.kind,
          rateGbps: link.rateGbps,
          ...(link.widthSpeed !== undefined ? { widthSpeed: link.widthSpeed } : {}),
          linkUp: outState?.linkUp ?? null,
          out: outState,
          in: inState,
        });
      }
      return {
        node: {
          name: node.name,
          type: node.type,
          tier: node.tier,
          guid: node.guid,
          lid: node.lid,
          ...(node.description !== undefined ? { description: node.description } : {}),
          portCount: node.portCount,
        },
        time: tick.time,
        ports,
      };
    },
  );

  app.get(
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
        assertTablesRead(app.fabric.tablesOrigin);
      } catch (error) {
        if (error instanceof SmTablesNotReadError) return sendError(reply, 503, error.message);
        throw error;
      }
      const { tables, tablesOrigin, fabric } = app.fabric;
      const { load, computeMs } = await staticLoadOf(fabric, tables);
      // Beside each count, what was measured on the port at the live tick (stale: unknown).
      const tick = await app.sampler.current();
      const utilization = measuredUtilization(tick.frame, fabric.links.length * 2);
      const { groups, top, comparison } = summarizeStaticLoad(
        fabric,
        load,
        request.query.limit ?? 20,
        utilization,
        request.query.kind,
      );
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
        measured: {
          time: tick.health.lastSampleAgeSeconds === null ? null : tick.time,
          ports: comparison.measuredPorts,
          correlation: comparison.correlation,
        },
      };
    },
  );
};

/**
 * Utilization per channel in the fabric's channel order (the sampler's), NaN where unknown; a tick
 * of another topology (a different channel count) is no measurement of this one.
 */
function measuredUtilization(frame: LinkFrame, channels: number): Float64Array {
  // The frame's column: NaN where unknown (no rate: stale).
  if (frame.utilization.length !== channels) return new Float64Array(channels).fill(Number.NaN);
  return frame.utilization.slice();
}
