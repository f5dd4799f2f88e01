import type { Job, JobListing, JobSource } from './job.ts';

/** How long a squeue answer or a jobs file is reused: every panel of every dashboard asks. */
export const JOBS_CACHE_MS = 5000;

/** A job source asked at most once per `ttlMs` (squeue loads slurmctld); concurrent asks share one, failures are not kept. */
export class CachedJobSource implements JobSource {
  private answer: { atMs: number; listing: JobListing } | null = null;
  private running: Promise<JobListing> | null = null;

  constructor(
    private readonly source: JobSource,
    private readonly ttlMs = JOBS_CACHE_MS,
    private readonly now: () => number = Date.now,
  ) {}

  get kind(): JobSource['kind'] {
    return this.source.kind;
  }

  finished(id: string): Promise<Job | null> {
    return this.source.finished?.(id) ?? Promise.resolve(null);
  }

  list(): Promise<JobListing> {
    if (this.answer && this.now() - this.answer.atMs < this.ttlMs)
      return Promise.resolve(this.answer.listing);
    this.running ??= this.source
      .list()
      .then((listing) => {
        this.answer = { atMs: this.now(), listing };
        return listing;
      })
      .finally(() => {
        this.running = null;
      });
    return this.running;
  }
}
