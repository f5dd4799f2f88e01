import type { FastifyInstance } from 'fastify';
import fastifyPlugin from 'fastify-plugin';
import type { ApiConfig } from '../../config.ts';
import { CachedJobSource } from '../../jobs/cached-source.ts';
import { FabricJobs } from '../../jobs/fabric-jobs.ts';
import { FileJobSource } from '../../jobs/file-source.ts';
import type { JobSource } from '../../jobs/job.ts';
import { SlurmJobSource } from '../../jobs/slurm-source.ts';
import { victimsFromTicks } from '../../lossless-victims.ts';
import type { AppSource } from '../app-source.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Jobs (Slurm's, a jobs file's or the emulator's traffic) and the flows attributed to them. */
    readonly jobs: FabricJobs;
  }
}

/** FABSCOPE_JOBS' source, read at most every few seconds however many panels ask. */
function jobSourceOf(config: ApiConfig): JobSource | undefined {
  const jobs = config.jobs;
  if (!jobs) return undefined;
  if (jobs.kind === 'file') return new CachedJobSource(new FileJobSource(jobs.path));
  return new CachedJobSource(
    new SlurmJobSource({ command: jobs.command, format: jobs.format, timeoutMs: jobs.timeoutMs }),
  );
}

/** Decorates `jobs`: the configured source, else the emulator's traffic, flows estimated on the current tables. */
export const jobsPlugin = fastifyPlugin(
  async (app: FastifyInstance, source: AppSource) => {
    const jobs = source.state ? source.state.jobs : jobSourceOf(source.build.config);
    // The switches' own pause and ECN counters name the victims when the fabric is read by SNMP; the sampler is
    // decorated later, and read at each call.
    const measured = source.build?.config.fabricSource === 'snmp';
    const victims = measured ? victimsFromTicks({ current: () => app.sampler.current() }) : undefined;
    app.decorate('jobs', new FabricJobs(jobs, app.emulator, app.fabric, Date.now, victims));
  },
  { name: 'jobs', dependencies: ['fabric', 'emulator'] },
);
