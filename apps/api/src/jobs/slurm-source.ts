import { type ExecFileException, execFile } from 'node:child_process';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { type Job, type JobListing, type JobSource, JobSourceError, type SkippedJob } from './job.ts';
import { SacctAccounting } from './sacct.ts';
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

const execFileAsync = promisify(execFile);

/** Jobs from Slurm: runs squeue (no shell) and parses its answer. */
export class SlurmJobSource implements JobSource {
  readonly kind = 'slurm';
  private readonly accounting: SacctAccounting;

  constructor(private readonly options: SlurmSourceOptions = {}) {
    const { command = 'squeue', timeoutMs = 5000 } = options;
    // sacct is installed beside squeue (slurm-client): a squeue given by path finds its sacct there.
    const sacct = command.includes('/') ? join(dirname(command), 'sacct') : 'sacct';
    this.accounting = new SacctAccounting(sacct, timeoutMs);
  }

  /** A job squeue has forgotten (finished), from `sacct --json`. */
  finished(id: string): Promise<Job | null> {
    return this.accounting.find(id);
  }

  async list(): Promise<JobListing> {
    const { command = 'squeue', format = 'json', timeoutMs = 5000 } = this.options;
    const args = format === 'json' ? ['--json'] : ['-h', '-o', SQUEUE_FORMAT];
    const options = { timeout: timeoutMs, maxBuffer: MAX_OUTPUT_BYTES, encoding: 'utf8' } as const;
    const out = await execFileAsync(command, args, options).then(
      (done) => done.stdout,
      (error: ExecFileException & { stderr: string }) => {
        const why = error.killed
          ? `timed out after ${timeoutMs} ms`
          : (error.stderr.trim().split('\n')[0] ?? error.message) || error.message;
        throw new JobSourceError(`${command} ${args.join(' ')} failed: ${why}`);
      },
    );
    const skipped: SkippedJob[] = [];
    const jobs = format === 'json' ? parseSqueueJson(out, skipped) : parseSqueueText(out, skipped);
    return { jobs, skipped };
  }
}
