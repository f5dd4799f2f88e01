import type { ApiContext } from '../context.ts';
import { EmulatorJobSource } from './emulator-source.ts';
import type { Job, JobListing, JobSource } from './job.ts';
import { currentFlows, type FlowSelection, type JobFlow } from './job-flows.ts';

/** The job source of a context: the configured one, else the emulator's traffic, else none. */
export function jobSourceOf(ctx: ApiContext): JobSource | null {
  if (ctx.jobs) return ctx.jobs;
  return ctx.emulator ? new EmulatorJobSource(ctx.emulator) : null;
}

export async function listJobs(ctx: ApiContext): Promise<Job[]> {
  return (await jobListing(ctx)).jobs;
}

/** The jobs and the entries the source could not read (a bad host list in squeue's answer). */
export async function jobListing(ctx: ApiContext): Promise<JobListing> {
  return (await jobSourceOf(ctx)?.list()) ?? { jobs: [], skipped: [] };
}

/**
 * The flows on the fabric now: live with an emulator; estimated from running jobs without one,
 * or for the jobs of a configured source (squeue, a file) that have no live flows. A selection
 * keeps only the flows crossing a link direction or those of one job.
 */
export function flowsNow(ctx: ApiContext, selection: FlowSelection = {}): Promise<JobFlow[]> {
  const estimate = ctx.emulator === null || ctx.jobs !== undefined;
  return currentFlows(ctx, () => listJobs(ctx), { estimate, ...selection });
}
