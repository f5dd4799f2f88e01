import { ErrorReply, StaticLoadQuery, StaticLoadSchema } from '@fabscope/contracts';
import { summarizeStaticLoad } from '@fabscope/topology';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { LinkFrame } from '../../lib/frame.ts';
import { assertTablesRead, tablesAnswer } from '../../sm-tables/origin.ts';
import { staticLoadOf } from '../../sm-tables/static-load.ts';

/** The forwarding tables' static load per switch port (ibdiagnet -r), beside what was measured. */
export const staticLoadRoutes: FastifyPluginAsyncTypebox = async (app) => {
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
    async (request) => {
      assertTablesRead(app.fabric.tablesOrigin);
      const { tables, tablesOrigin, fabric } = app.fabric;
      const { load, computeMs } = await staticLoadOf(fabric, tables);
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
        ...load,
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

/** Utilization per channel, NaN where unknown; a tick of another drawing measures nothing here. */
function measuredUtilization(frame: LinkFrame, channels: number): Float64Array {
  if (frame.utilization.length !== channels) return new Float64Array(channels).fill(Number.NaN);
  return frame.utilization.slice();
}
