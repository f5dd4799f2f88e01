import type { Job, JobList } from '@fabscope/contracts';
import { naturalCompare } from '@fabscope/contracts/names';
import { NotFoundError } from '../errors.ts';

export type { Job };

/** An entry of a source that could not be read as a job: left out, said. */
export type SkippedJob = NonNullable<JobList['skipped']>['entries'][number];

/** The jobs a source could read, and the entries it could not. */
export interface JobListing {
  jobs: Job[];
  skipped: SkippedJob[];
}

/** Where jobs come from; `list` is asked on every jobs request. */
export interface JobSource {
  readonly kind: 'emulator' | 'slurm' | 'file';
  /** Throws JobSourceError when the source cannot answer at all; a bad entry is skipped, not fatal. */
  list(): Promise<JobListing>;
  /** A job it no longer lists (finished), from its accounting; absent: it keeps none. */
  finished?(id: string): Promise<Job | null>;
}

/**
 * Each entry's job (null: none), an entry that fails with JobSourceError added to `skipped` with its reason (thrown
 * without `skipped`).
 */
export function readEntries<T>(
  entries: readonly T[],
  whereOf: (i: number) => string,
  skipped: SkippedJob[] | undefined,
  read: (entry: T, where: string) => Job | null,
): Job[] {
  const jobs: Job[] = [];
  entries.forEach((entry, i) => {
    const where = whereOf(i);
    try {
      const job = read(entry, where);
      if (job) jobs.push(job);
    } catch (error) {
      if (!(error instanceof JobSourceError) || skipped === undefined) throw error;
      const reason = error.message.startsWith(`${where}: `)
        ? error.message.slice(where.length + 2)
        : error.message;
      skipped.push({ entry: where, reason });
    }
  });
  return jobs;
}

/** `text`'s `jobs` array; JobSourceError `<where>: not JSON (…)` or `<where>: <noJobs>` when it has none. */
export function jobsArray(text: string, where: string, noJobs: string): unknown[] {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (error) {
    throw new JobSourceError(`${where}: not JSON (${(error as Error).message})`);
  }
  if (!isObject(doc) || !Array.isArray(doc.jobs)) throw new JobSourceError(`${where}: ${noJobs}`);
  return doc.jobs;
}

export const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** A job source that cannot answer (squeue failed, the file is unreadable); the message says why. */
export class JobSourceError extends Error {
  override name = 'JobSourceError';
}

/** Most task ids an ArrayJobError names; the rest are counted. */
const TASKS_NAMED = 10;

/** An id that names a Slurm array job, not one run: each task (`1234_7`) has its own hosts and times. */
export class ArrayJobError extends NotFoundError {
  override name = 'ArrayJobError';
  readonly tasks: readonly string[];
  constructor(id: string, tasks: readonly string[]) {
    const sorted = [...tasks].sort(naturalCompare);
    const named = sorted.slice(0, TASKS_NAMED).join(', ');
    const more = sorted.length > TASKS_NAMED ? ` and ${sorted.length - TASKS_NAMED} more` : '';
    super(
      `job "${id}" is an array job of ${sorted.length} task${sorted.length === 1 ? '' : 's'} (${named}${more}): ask for one task, e.g. "${sorted[0]}"`,
    );
    this.tasks = sorted;
  }
}

/** The tasks of array job `id` among `jobs` (`id_7`, `id_[8-10]`). */
export function arrayTasksOf(jobs: readonly Job[], id: string): string[] {
  return jobs.filter((j) => j.id.startsWith(`${id}_`)).map((j) => j.id);
}

/** Running jobs are the ones whose traffic is on the fabric now. */
export function isRunning(job: Job): boolean {
  return job.state === 'RUNNING' || job.state === 'COMPLETING';
}
