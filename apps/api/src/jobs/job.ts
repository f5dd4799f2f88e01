/** A job in Slurm's vocabulary: what emulator traffic, squeue and a jobs file all become. */
export interface Job {
  /** Slurm's job id (`123`, `123_4` for an array task); the job name for emulator jobs. */
  id: string;
  name: string;
  /** Submitting user; null when the source does not say. */
  user: string | null;
  /** Slurm's base state: RUNNING, PENDING, COMPLETING, SUSPENDED, … */
  state: string;
  /** Hosts allocated, host lists expanded, in the order the source gives them. */
  nodes: string[];
  /** ISO 8601; null when unknown (a pending job without an expected start). */
  startTime: string | null;
}

/** An entry of a source that could not be read as a job: left out, said. */
export interface SkippedJob {
  /** Where: `squeue line 12`, `jobs file /x.json: jobs[3]`. */
  entry: string;
  reason: string;
}

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
}

/** Runs `read` for one entry: its job, or null with the entry added to `skipped` (thrown without one). */
export function readEntry<T>(entry: string, skipped: SkippedJob[] | undefined, read: () => T): T | null {
  try {
    return read();
  } catch (error) {
    if (!(error instanceof JobSourceError) || skipped === undefined) throw error;
    const reason = error.message.startsWith(`${entry}: `)
      ? error.message.slice(entry.length + 2)
      : error.message;
    skipped.push({ entry, reason });
    return null;
  }
}

/** A job source that cannot answer (squeue failed, the file is unreadable); the message says why. */
export class JobSourceError extends Error {
  override name = 'JobSourceError';
}

/** Running jobs are the ones whose traffic is on the fabric now. */
export function isRunning(job: Job): boolean {
  return job.state === 'RUNNING' || job.state === 'COMPLETING';
}
