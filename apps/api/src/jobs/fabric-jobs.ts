import type { EmulatorClient } from '../emulator-client.ts';
import { EmulatorJobSource } from './emulator-source.ts';
import type { Job, JobListing, JobSource } from './job.ts';
import { currentFlows, type FlowSelection, type JobFlow, type RoutedFabric } from './job-flows.ts';

/** The jobs the routes read, and the flows attributed to them: configured source, else the emulator's traffic. */
export class FabricJobs {
  /** Where jobs come from; null: nowhere (no source configured, no emulator). */
  readonly source: JobSource | null;
  private readonly estimate: boolean;

  constructor(
    configured: JobSource | undefined,
    private readonly emulator: EmulatorClient | null,
    /** Read at each use, not here: its fabric and tables are replaced while the API runs. */
    private readonly live: RoutedFabric,
  ) {
    this.source = configured ?? (emulator ? new EmulatorJobSource(emulator) : null);
    // Nothing measures a real fabric's flows, nor those of another source's jobs: estimated.
    this.estimate = emulator === null || configured !== undefined;
  }

  async list(): Promise<Job[]> {
    return (await this.listing()).jobs;
  }

  /** The jobs and the entries the source could not read (a bad host list in squeue's answer). */
  async listing(): Promise<JobListing> {
    return (await this.source?.list()) ?? { jobs: [], skipped: [] };
  }

  /** A job the source no longer lists, from its accounting (Slurm's sacct); null when it keeps none or has not the job. */
  async finished(id: string): Promise<Job | null> {
    return (await this.source?.finished?.(id)) ?? null;
  }

  /** The flows on the fabric now (live or estimated), optionally only one link direction's or one job's. */
  flowsNow(selection: FlowSelection = {}): Promise<JobFlow[]> {
    return currentFlows(this.live, this.emulator, () => this.list(), {
      estimate: this.estimate,
      ...selection,
    });
  }
}
