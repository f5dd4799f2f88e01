import { naturalCompare } from '@fabscope/contracts/names';
import type { EmulatorClient, EmulatorJob } from '../emulator-client.ts';
import type { Job, JobListing, JobSource } from './job.ts';

/** Names in natural order (`node2` before `node10`), so a job's hosts read as its allocation. */
export const byName = naturalCompare;

/** An emulator job in Slurm's vocabulary: its name is its id; nobody submitted it. */
export function jobOfEmulator(job: EmulatorJob): Job {
  return {
    id: job.name,
    name: job.name,
    user: null,
    state: job.state === 'running' ? 'RUNNING' : 'PENDING',
    nodes: [...job.nodes].sort(byName),
    startTime: Number.isFinite(job.startMs) ? new Date(job.startMs).toISOString() : null,
  };
}

/** The emulator's jobs, grouped there (`GET /v1/jobs`): no flow list crosses the wire. */
export class EmulatorJobSource implements JobSource {
  readonly kind = 'emulator';
  constructor(private readonly emulator: EmulatorClient) {}

  async list(): Promise<JobListing> {
    return { jobs: (await this.emulator.listJobs()).jobs.map(jobOfEmulator), skipped: [] };
  }
}
