import { ErrorReply, LinkHistorySchema, LinkRangeQuery } from '@fabscope/contracts';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { NotFoundError } from '../../errors.ts';
import { parseRange } from '../../lib/time-params.ts';

const iso = (ms: number) => new Date(ms).toISOString();

/** Chosen link directions' series over a time range. */
export const linkHistoryRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const errors = { 400: ErrorReply, 409: ErrorReply, 502: ErrorReply, 503: ErrorReply, 504: ErrorReply };
  const config = { expensive: true };
  const isKnown = (id: string) =>
    (app.fabric.drawn?.list() ?? [{ linkIndex: app.fabric.linkIndex }]).some(({ linkIndex }) =>
      linkIndex.channelById.has(id),
    );
  app.get(
    '/links/history',
    {
      config,
      schema: {
        summary: 'Utilization, throughput and XmitWait of link directions (`id`, repeated) over a range',
        querystring: LinkRangeQuery,
        response: { 200: LinkHistorySchema, ...errors, 404: ErrorReply },
      },
    },
    async (request) => {
      const unknown = request.query.id.find((id) => !isKnown(id));
      if (unknown !== undefined) {
        throw new NotFoundError(`unknown link direction "${unknown}" (ids look like "edge1/4->core2/1")`);
      }
      const queries = app.timeTravel.require();
      const ids = [...new Set(request.query.id)];
      const range = parseRange(request.query, {
        nowMs: Date.now(),
        defaultStepMs: queries.resolutionMs,
        maxPoints: Math.floor(11_000 / ids.length),
      });
      const series = await queries.linkRange(ids, range);
      return {
        series: series.map((s) => ({
          id: s.id,
          points: s.points.map((p) => ({ ...p, time: iso(p.timeMs) })),
        })),
      };
    },
  );
};
