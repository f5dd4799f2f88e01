import { execFile } from 'node:child_process';
import { type JobListing, type JobSource, JobSourceError, type SkippedJob } from './job.ts';
import { parseSqueueJson, parseSqueueText, SQUEUE_FORMAT } from './squeue.ts';

export interface SlurmSourceOptions {
  /** The squeue program; default `squeue` from PATH. */
  command?: string;
  /** `json` (squeue --json, Slurm 21.08+) or `text` (`-h -o`, any version). Default json. */
  format?: 'json' | 'text';
  /** Longest squeue may take (ms); a slow controller must not hold the API's answer. Default 5 s. */
  timeoutMs?: number;
}

/** Most bytes of squeue output read: 50k jobs of --json is well under this. */
const MAX_OUTPUT_BYTES = 256 * 1024 * 1024;

/** Jobs from Slurm: runs squeue (no shell) and parses its answer. */
export class SlurmJobSource implements JobSource {
  readonly kind = 'slurm';
  private readonly command: string;
  private readonly format: 'json' | 'text';
  private readonly timeoutMs: number;

  constructor(options: SlurmSourceOptions = {}) {
    this.command = options.command ?? 'squeue';
    this.format = options.format ?? 'json';
    this.timeoutMs = options.timeoutMs ?? 5000;
  }

  async list(): Promise<JobListing> {
    const args = this.format === 'json' ? ['--json'] : ['-h', '-o', SQUEUE_FORMAT];
    const out = await new Promise<string>((resolve, reject) => {
      execFile(
        this.command,
        args,
        { timeout: this.timeoutMs, maxBuffer: MAX_OUTPUT_BYTES, encoding: 'utf8' },
        (error, stdout, stderr) => {
          if (!error) return resolve(stdout);
          const why = error.killed
            ? `timed out after ${this.timeoutMs} ms`
            : (stderr.trim().split('\n')[0] ?? error.message) || error.message;
          reject(new JobSourceError(`${this.command} ${args.join(' ')} failed: ${why}`));
        },
      );
    });
    const skipped: SkippedJob[] = [];
    const jobs = this.format === 'json' ? parseSqueueJson(out, skipped) : parseSqueueText(out, skipped);
    return { jobs, skipped };
  }
}
