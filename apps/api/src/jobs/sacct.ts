import { type ExecFileException, execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { hostsOf } from './hostlist.ts';
import { ArrayJobError, isObject, type Job, JobSourceError, jobsArray, readEntries } from './job.ts';

// Slurm's accounting as `sacct --json` prints it (data_parser dbv0.0.38 in Slurm 22.05: `state: {current, reason}`,
// `time: {start, end, …}` in Unix seconds, 0 unset; later ones: `current` an array, times `{set, infinite, number}`).

/** What sacct prints as the node list of a job that never ran. */
const NO_NODES = new Set(['', 'None assigned', '(null)']);

/** `sacct --json`'s jobs; an entry that cannot be read fails naming it (`sacct --json jobs[3]: …`). */
export function parseSacctJson(text: string): Job[] {
  return sacctRecords(text).map((r) => r.job);
}

/** A job as sacct records it: its own job id, and the array job it is a task of (null: none). */
interface SacctRecord {
  job: Job;
  jobId: string;
  arrayJob: string | null;
}

function sacctRecords(text: string): SacctRecord[] {
  const entries = jobsArray(text, 'sacct --json', 'no "jobs" array in the answer');
  const records: SacctRecord[] = [];
  readEntries(
    entries,
    (i) => `sacct --json jobs[${i}]`,
    undefined,
    (raw, where) => {
      const record = sacctRecord(raw, where);
      records.push(record);
      return record.job;
    },
  );
  return records;
}

/**
 * The job `id` names in sacct's answer to `-j id`: the job or array task of that id; ArrayJobError when `id` is an
 * array job, whose tasks each have a run of their own (as Slurm reads `-j`, even though the array's id is also one
 * task's own job id); else the task whose own job id it is (task 5_1 is job 6 too).
 */
export function jobOfSacct(text: string, id: string): Job | null {
  const records = sacctRecords(text);
  const exact = records.find((r) => r.job.id === id);
  if (exact) return exact.job;
  const tasks = records.filter((r) => r.arrayJob === id).map((r) => r.job.id);
  if (tasks.length > 0) throw new ArrayJobError(id, tasks);
  return records.find((r) => r.jobId === id)?.job ?? null;
}

function sacctRecord(raw: unknown, where: string): SacctRecord {
  if (!isObject(raw)) throw new JobSourceError(`${where}: not an object`);
  const jobId = numberOf(raw.job_id);
  if (jobId === null) throw new JobSourceError(`${where}: job_id missing`);
  const array = isObject(raw.array) ? raw.array : {};
  const arrayJob = numberOf(array.job_id);
  const arrayTask = numberOf(array.task_id);
  const inArray = arrayJob !== null && arrayJob > 0;
  // Tasks not yet run are one record, `array.task` their range ("3-10"), as squeue prints `1234_[3-10]`.
  const pendingTasks = typeof array.task === 'string' && array.task !== '' ? `[${array.task}]` : null;
  const task = arrayTask !== null ? String(arrayTask) : pendingTasks;
  const id = inArray && task !== null ? `${arrayJob}_${task}` : String(jobId);
  return {
    job: sacctJob(raw, where, id),
    jobId: String(jobId),
    arrayJob: inArray ? String(arrayJob) : null,
  };
}

function sacctJob(raw: Record<string, unknown>, where: string, id: string): Job {
  const state = isObject(raw.state) ? raw.state.current : undefined;
  const current = Array.isArray(state) ? state[0] : state;
  if (typeof current !== 'string') throw new JobSourceError(`${where}: state.current missing`);
  const nodes = raw.nodes ?? '';
  if (typeof nodes !== 'string') throw new JobSourceError(`${where}: nodes is not a host list`);
  const time = isObject(raw.time) ? raw.time : {};
  const ran = !NO_NODES.has(nodes);
  // A job cancelled before it ran has no nodes, and Slurm 22.05.8 gives its cancel time as its start (recorded).
  const start = ran ? numberOf(time.start) : null;
  const end = numberOf(time.end);
  return {
    id,
    name: typeof raw.name === 'string' ? raw.name : '',
    user: typeof raw.user === 'string' && raw.user !== '' ? raw.user : null,
    state: current.toUpperCase(),
    nodes: ran ? hostsOf(nodes, (m) => new JobSourceError(`${where}: ${m}`)) : [],
    // 0 is Slurm's "not set"; a running job's end is 0 too.
    startTime: start !== null && start > 0 ? new Date(start * 1000).toISOString() : null,
    endTime: end !== null && end > 0 ? new Date(end * 1000).toISOString() : null,
  };
}

/** A number, or Slurm's `{set, infinite, number}`; null when unset or infinite. */
function numberOf(value: unknown): number | null {
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (isObject(value) && value.set === true && value.infinite !== true && typeof value.number === 'number')
    return value.number;
  return null;
}

const execFileAsync = promisify(execFile);

/** `sacct --json -X -j ID` (no shell): a finished job's hosts and times, when squeue has forgotten it. */
export class SacctAccounting {
  constructor(
    private readonly command = 'sacct',
    private readonly timeoutMs = 5000,
  ) {}

  async find(id: string): Promise<Job | null> {
    if (!/^\d+(?:_\d+)?$/.test(id)) return null;
    const args = ['--json', '-X', '-j', id];
    const out = await execFileAsync(this.command, args, {
      timeout: this.timeoutMs,
      maxBuffer: 64 * 1024 * 1024,
      encoding: 'utf8',
    }).then(
      (done) => done.stdout,
      (error: ExecFileException & { stderr: string }) => {
        const why = error.killed
          ? `timed out after ${this.timeoutMs} ms`
          : error.stderr.trim().split('\n')[0];
        throw new JobSourceError(`${this.command} ${args.join(' ')} failed: ${why || error.message}`);
      },
    );
    return jobOfSacct(out, id);
  }
}
