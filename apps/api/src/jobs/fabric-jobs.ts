import type { EmulatorClient } from '../emulator-client.ts';
import { JOBS_CACHE_MS } from './cached-source.ts';
import { EmulatorJobSource } from './emulator-source.ts';
import { ArrayJobError, arrayTasksOf, type Job, type JobListing, type JobSource } from './job.ts';
import { currentFlows, type FlowSelection, type JobFlow, type RoutedFabric } from './job-flows.ts';
import { FlowsByDirection } from './jobs-crossing.ts';

/** How long the flows' index by direction is reused: the jobs listing's cache, so both say the same jobs. */
export const FLOWS_INDEX_MS = JOBS_CACHE_MS;

/** The jobs the routes read, and the flows attributed to them: configured source, else the emulator's traffic. */
export class FabricJobs {
  /** Where jobs come from; null: nowhere (no source configured, no emulator). */
  readonly source: JobSource | null;
  private readonly estimate: boolean;
  private indexed: { atMs: number; tables: object; index: Promise<FlowsByDirection> } | null = null;

  constructor(
    configured: JobSource | undefined,
    private readonly emulator: EmulatorClient | null,
    /** Read at each use, not here: its fabric and tables are replaced while the API runs. */
    private readonly live: RoutedFabric,
    private readonly now: () => number = Date.now,
    /** Names the flows' victims from measurement (a fabric read by SNMP); absent: as the flows' source says. */
    private readonly victims?: (flows: JobFlow[]) => Promise<JobFlow[]>,
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

  /**
   * The one run `id` names: listed, else from the accounting. An array job's id (`1234`, its tasks `1234_7` listed or
   * in the accounting) is ArrayJobError naming the tasks, since each ran on hosts and at times of its own.
   */
  async run(id: string, listing: readonly Job[]): Promise<Job | null> {
    const listed = listing.find((j) => j.id === id);
    if (listed && listed.nodes.length > 0) return listed;
    const tasks = arrayTasksOf(listing, id);
    if (tasks.length > 0) throw new ArrayJobError(id, tasks);
    if (!listed) return this.finished(id);
    // Listed, never ran: squeue lists an array's pending tasks under the array's id; its accounting knows the rest.
    await this.finished(id).catch((error: unknown) => {
      if (error instanceof ArrayJobError) throw error;
    });
    return listed;
  }

  /**
   * Every flow now by the directions it crosses, made at most once per FLOWS_INDEX_MS and per tables: each alarm's
   * "jobs affected" then reads the flows on its own directions, not every flow of every job.
   */
  flowsByDirection(): Promise<FlowsByDirection> {
    const atMs = this.now();
    const { tables } = this.live;
    const kept = this.indexed;
    if (kept && kept.tables === tables && atMs - kept.atMs < FLOWS_INDEX_MS && atMs >= kept.atMs)
      return kept.index;
    const index = this.flowsNow().then((flows) => new FlowsByDirection(flows));
    this.indexed = { atMs, tables, index };
    // A failed ask is not kept: the next one asks again.
    index.catch(() => {
      if (this.indexed?.index === index) this.indexed = null;
    });
    return index;
  }

  /** The flows on the fabric now (live or estimated), optionally only one link direction's or one job's. */
  async flowsNow(selection: FlowSelection = {}): Promise<JobFlow[]> {
    const flows = await currentFlows(this.live, this.emulator, () => this.list(), {
      estimate: this.estimate,
      ...selection,
    });
    return this.victims ? this.victims(flows) : flows;
  }
}
