import type { FastifyInstance } from 'fastify';
import fastifyPlugin from 'fastify-plugin';
import { FabricJobs } from '../jobs/fabric-jobs.ts';
import type { JobSource } from '../jobs/job.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Jobs (Slurm's, a jobs file's or the emulator's traffic) and the flows attributed to them. */
    readonly jobs: FabricJobs;
  }
}

/**
 * Decorates `jobs`: the configured source, else the emulator's traffic; its flows are estimated
 * on the fabric's tables, read as they are at each question.
 */
export const jobsPlugin = fastifyPlugin(
  async (app: FastifyInstance, options: { source?: JobSource | undefined }) => {
    app.decorate('jobs', new FabricJobs(options.source, app.emulator, app.fabric));
  },
  { name: 'jobs', dependencies: ['fabric', 'emulator'] },
);
