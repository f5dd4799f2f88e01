import type { Job, JobSource } from './job.ts';

/** How long a squeue answer or a jobs file is reused: every panel of every dashboard asks. */
export const JOBS_CACHE_MS = 5000;

/**
 * A job source asked at most once per `ttlMs`, however many requests want jobs: squeue loads
 * slurmctld, and the dashboard's panels each ask every few seconds. Requests while one is on
 * its way share it; a failure is not kept (the next request asks again).
 */
export class CachedJobSource implements JobSource {
  private answer: { atMs: number; jobs: Job[] } | null = null;
  private running: Promise<Job[]> | null = null;

  constructor(
    private readonly source: JobSource,
    private readonly ttlMs = JOBS_CACHE_MS,
    private readonly now: () => number = Date.now,
  ) {}

  get kind(): JobSource['kind'] {
    return this.source.kind;
  }

  list(): Promise<Job[]> {
    if (this.answer && this.now() - this.answer.atMs < this.ttlMs) return Promise.resolve(this.answer.jobs);
    this.running ??= this.source.list().then(
      (jobs) => {
        this.answer = { atMs: this.now(), jobs };
        this.running = null;
        return jobs;
      },
      (error: unknown) => {
        this.running = null;
        throw error;
      },
    );
    return this.running;
  }
}
