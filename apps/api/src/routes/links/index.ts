import { InstantQuery, LinksAnswerSchema, LinksQuery } from '@fabscope/contracts';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { NotFoundError } from '../../errors.ts';
import { errorReplies } from '../../http/errors.ts';
import { jobLinks } from '../../jobs/job-report.ts';
import { channelsOf, prepareLinkOrder, RankedLinks } from '../../lib/link-order.ts';

/** `GET /links`: link directions ranked, now or at `time`, a page at a time over one ranked list. */
export const linksRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const LinksAtQuery = Type.Composite([LinksQuery, InstantQuery]);
  prepareLinkOrder(app.fabric.linkIndex);
  app.get(
    '/links',
    {
      config: { cache: 'tick' },
      schema: {
        summary:
          'Link directions ranked by utilization (opatop style), throughput, congestion (transmitWaitFraction) or a PM category (integrity, congestion, smaCongestion, bubble, security, routing), a page at a time: `next` reads on from the same instant',
        querystring: LinksAtQuery,
        response: {
          200: LinksAnswerSchema,
          ...errorReplies(400, 404, 410, 502, 504),
        },
      },
    },
    async (request) => {
      const { sort = 'utilization', order = 'desc', kind, job, time } = request.query;
      // A list of the latest tick and these parameters already held is paged again, not sorted again.
      const live =
        time === undefined && request.query.cursor === undefined ? await app.sampler.current() : null;
      const open = async () => {
        let ofJob: Set<string> | null = null;
        if (job !== undefined) {
          if (!(await app.jobs.list()).some((j) => j.id === job)) throw new NotFoundError(`no job "${job}"`);
          ofJob = new Set(jobLinks(await app.jobs.flowsNow({ job }), job).map((l) => l.id));
        }
        // Filters first, then the order; the frame is ranked over its columns, objects only for a page's rows.
        const frame = live ? live.frame : await app.timeTravel.frameAt(time);
        const rows = { frame, channels: channelsOf(frame, kind, ofJob) };
        return {
          instant: live ? live.time : new Date(frame.timeMs).toISOString(),
          rows: new RankedLinks(frame.index, rows, sort, order),
          extra: null,
        };
      };
      // A past instant asked again within a tick is paged again; after a tick it is read again
      // (samples of a recent instant may come late).
      const reuse = live
        ? `tick ${live.time}`
        : time !== undefined
          ? `time ${time} during tick ${app.sampler.tickCount}`
          : undefined;
      const page = await app.listings.page('links', request.query, open, reuse);
      return { ...page, time: page.instant, links: page.rows };
    },
  );
};
