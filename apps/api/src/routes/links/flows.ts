import { ErrorReply, LinkFlowsQuery, LinkFlowsReply } from '@fabscope/contracts';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { NotFoundError } from '../../errors.ts';
import { flowsOnLink, linkKinds } from '../../jobs/job-report.ts';

/** The flows crossing a link direction, with their jobs: why a link is hot. */
export const linkFlowsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const errors = { 400: ErrorReply, 404: ErrorReply, 502: ErrorReply, 504: ErrorReply };
  app.get(
    '/links/flows',
    {
      schema: {
        summary:
          'Why a link is hot: the flows crossing a link direction with rate and job (estimated from running jobs without an emulator)',
        querystring: LinkFlowsQuery,
        response: { 200: LinkFlowsReply, ...errors, 410: ErrorReply },
      },
    },
    async (request) => {
      const { id } = request.query;
      if (!linkKinds(app.fabric.linkIndex).has(id)) {
        throw new NotFoundError(`no link direction "${id}" (ids are node/port->node/port)`);
      }
      const page = await app.listings.page('links/flows', request.query, async () => {
        const { flows, jobs } = flowsOnLink(await app.jobs.flowsNow({ link: id }), id);
        const estimated = app.emulator === null || flows.some((f) => f.estimated);
        return { instant: new Date().toISOString(), rows: flows, extra: { jobs, estimated } };
      });
      return { ...page, ...page.extra, id, flows: page.rows };
    },
  );
};
