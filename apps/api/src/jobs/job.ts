/**
 * A job in Slurm's vocabulary (squeue): what fabscope attributes traffic to. The emulator's traffic
 * requests, squeue and a jobs file all become this one shape.
 */
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

/** Where jobs come from; `list` is asked on every jobs request. */
export interface JobSource {
  readonly kind: 'emulator' | 'slurm' | 'file';
  list(): Promise<Job[]>;
}

/** A job source that cannot answer (squeue failed, the file is unreadable); the message says why. */
export class JobSourceError extends Error {
  override name = 'JobSourceError';
}

/** Running jobs are the ones whose traffic is on the fabric now. */
export function isRunning(job: Job): boolean {
  return job.state === 'RUNNING' || job.state === 'COMPLETING';
}
