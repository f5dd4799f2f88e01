import { ErrorReply, JobReportQuery, JobReportSchema } from '@fabscope/contracts';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { NotFoundError } from '../../../errors.ts';
import { jobFabricReport } from '../../../jobs/report/job-fabric-report.ts';
import { gather, reportWindow } from './report-inputs.ts';

/** `GET /jobs/{id}/report`: what slowed a job over its run, running or finished. */
export const jobReportRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const errors = { 400: ErrorReply, 404: ErrorReply, 409: ErrorReply, 502: ErrorReply, 504: ErrorReply };
  app.get(
    '/jobs/:id/report',
    {
      config: { expensive: true },
      schema: {
        summary:
          "A job's fabric report over its run (or from/to): its routes as programmed, the link directions they cross with utilization, XmitWait, errors and state, the jobs sharing its congested directions (culprits) and those it slowed (victims), a verdict, evidence instants and what is unknown",
        params: Type.Object({ id: Type.String({ minLength: 1, maxLength: 256 }) }),
        querystring: JobReportQuery,
        response: { 200: JobReportSchema, ...errors },
      },
    },
    async (request) => {
      const { id } = request.params;
      const listing = await app.jobs.list();
      const job = await app.jobs.run(id, listing);
      if (!job) {
        const where = app.jobs.source ? `the ${app.jobs.source.kind} job source` : 'any job source';
        throw new NotFoundError(
          `no job "${id}" in ${where}${app.jobs.source?.finished ? ' nor in its accounting (sacct)' : ''}`,
        );
      }
      const window = reportWindow(job, request.query, Date.now());
      return jobFabricReport(await gather(app, job, listing, window));
    },
  );
};
