import { ErrorReply, PortQuery, PortReplySchema } from '@fabscope/contracts';
import { channelFrom, findNode, hostIndex, nodesNamed } from '@fabscope/topology';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { NotFoundError } from '../../errors.ts';
import { stateAt } from '../../lib/frame.ts';
import { opticsField } from './port-optics.ts';
import { type PortReadingFields, portReadings } from './port-totals.ts';

/** How long the store may take to give a node's ports' last readings (a TSDB's one instant query). */
const READINGS_TIMEOUT_MS = 5000;

/** A node's cabled ports at the live tick; an unknown node is 404 (http/errors.ts). */
export const portRoutes: FastifyPluginAsyncTypebox = async (app) => {
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
    async (request) => {
      const { fabric } = app.fabric;
      const named = request.query.port === undefined ? nodesNamed(fabric, request.query.node) : [];
      // A host of several adapters (rails): its first rail's ports, and every rail listed.
      const node =
        named.length > 1 ? (named[0] as (typeof named)[number]) : findNode(fabric, request.query.node);
      const tick = await app.sampler.current();
      // The tick's directions are in channel order only when it is of this drawing.
      const frame = tick.frame.linkUp.length === fabric.links.length * 2 ? tick.frame : null;
      const wanted = request.query.port;
      if (wanted !== undefined && !node.ports[wanted])
        throw new NotFoundError(`${node.name} has no cabled port ${wanted}`);
      const cabled = [];
      for (let p = 0; p < node.ports.length; p++) {
        if ((wanted !== undefined && p !== wanted) || !node.ports[p]) continue;
        const out = channelFrom(fabric, node, p);
        if (out < 0) continue;
        const link = fabric.links[out >> 1] as (typeof fabric.links)[number];
        const neighbour = link.a.node === node.name && link.a.port === p ? link.b : link.a;
        const outState = frame ? stateAt(frame, out) : null;
        const inState = frame ? stateAt(frame, out ^ 1) : null;
        // The schema's serializer writes only its fields: the node, neighbour and link as they are.
        cabled.push({
          port: p,
          neighbour,
          linkId: link.id,
          kind: link.kind,
          rateGbps: link.rateGbps,
          widthSpeed: link.widthSpeed,
          linkUp: outState?.linkUp ?? null,
          fabricType: link.fabricType ?? fabric.fabricType,
          ...(link.mtu === undefined ? {} : { mtu: link.mtu }),
          out: outState,
          in: inState,
        });
      }
      const signal = AbortSignal.timeout(READINGS_TIMEOUT_MS);
      const readings = await portReadings(
        app.store,
        node.guid,
        cabled.map((p) => p.port),
        signal,
      );
      const ports = cabled.map((port, i) => ({
        ...port,
        ...(readings[i] as PortReadingFields),
        ...opticsField(app.portOptics, node.guid, port.port),
      }));
      if (named.length <= 1) return { node, time: tick.time, ports };
      const { railOf } = hostIndex(fabric);
      const rails = named.map((rail) => ({
        name: rail.name,
        device: railOf.get(rail)?.device ?? rail.name,
        subnet: rail.subnet,
        guid: rail.guid,
        lid: rail.lid,
        links: rail.ports.flatMap((p) => {
          const out = p ? channelFrom(fabric, rail, p.number) : -1;
          if (!p || out < 0) return [];
          const link = fabric.links[out >> 1] as (typeof fabric.links)[number];
          return [
            {
              port: p.number,
              neighbour: link.a.node === rail.name && link.a.port === p.number ? link.b : link.a,
              linkId: link.id,
              rateGbps: link.rateGbps,
              widthSpeed: link.widthSpeed,
              linkUp: frame ? stateAt(frame, out).linkUp : null,
            },
          ];
        }),
      }));
      return { node, time: tick.time, ports, rails };
    },
  );
};
