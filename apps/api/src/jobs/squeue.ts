import type { Tuple } from '../lib/tuple.ts';
import { hostsOf } from './hostlist.ts';
import { isObject, type Job, JobSourceError, jobsArray, readEntries, type SkippedJob } from './job.ts';

// Pure parsers of squeue's two outputs: a field of an unexpected type fails with the job and field named.
/** The `-o` format `parseSqueueText` reads: id, name, user, long state, node list, start time. */
export const SQUEUE_FORMAT = '%i|%j|%u|%T|%N|%S';

/** What squeue prints for a time it does not know. */
const NO_TIME = new Set(['', 'N/A', 'NONE', 'UNKNOWN', '(NULL)']);

/** `squeue -h -o SQUEUE_FORMAT`: the name may hold `|`, so the last four fields count from the right; `%S` is local time. */
export function parseSqueueText(text: string, skipped?: SkippedJob[]): Job[] {
  return readEntries(
    text.split(/\r?\n/),
    (i) => `squeue line ${i + 1}`,
    skipped,
    (line, where) => (line.trim() === '' ? null : squeueLine(line, where)),
  );
}

function squeueLine(line: string, where: string): Job {
  const fields = line.split('|');
  if (fields.length < 6) {
    throw new JobSourceError(
      `${where}: expected 6 fields (${SQUEUE_FORMAT}), got ${fields.length}: "${line.slice(0, 120)}"`,
    );
  }
  const id = (fields[0] as string).trim();
  const [user, state, nodeList, start] = fields.slice(-4).map((f) => f.trim()) as Tuple<string, 4>;
  const name = fields.slice(1, -4).join('|');
  return {
    id,
    name,
    user: user === '' ? null : user,
    state,
    nodes: nodesOf(nodeList, where),
    startTime: localTime(start, where),
  };
}

function nodesOf(list: string, where: string): string[] {
  // Pending jobs print their reason in NODELIST(REASON) with %R, and nothing with %N.
  if (list === '' || list.startsWith('(')) return [];
  return hostsOf(list, (message) => new JobSourceError(`${where}: ${message}`));
}

function localTime(text: string, where: string): string | null {
  if (NO_TIME.has(text.toUpperCase())) return null;
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/.test(text)) {
    throw new JobSourceError(`${where}: start time "${text}" is not YYYY-MM-DDTHH:MM:SS`);
  }
  return new Date(text).toISOString();
}

/** `squeue --json`, data_parser before v0.0.40 and since (flag arrays, `{set, infinite, number}` times). */
export function parseSqueueJson(text: string, skipped?: SkippedJob[]): Job[] {
  const entries = jobsArray(text, 'squeue --json', 'no "jobs" array in the answer');
  return readEntries(entries, (i) => `squeue --json jobs[${i}]`, skipped, squeueJsonJob);
}

function squeueJsonJob(raw: unknown, where: string): Job {
  if (!isObject(raw)) throw new JobSourceError(`${where}: not an object`);
  const jobId = raw.job_id;
  if (typeof jobId !== 'number' && typeof jobId !== 'string') {
    throw new JobSourceError(`${where}: job_id missing`);
  }
  const arrayJob = numberOf(raw.array_job_id);
  const arrayTask = numberOf(raw.array_task_id);
  const id =
    arrayJob !== null && arrayJob > 0 && arrayTask !== null ? `${arrayJob}_${arrayTask}` : String(jobId);
  const state = Array.isArray(raw.job_state) ? raw.job_state[0] : raw.job_state;
  if (typeof state !== 'string') throw new JobSourceError(`${where}: job_state missing`);
  const nodes = raw.nodes ?? '';
  if (typeof nodes !== 'string') throw new JobSourceError(`${where}: nodes is not a host list`);
  const start = numberOf(raw.start_time);
  return {
    id,
    name: typeof raw.name === 'string' ? raw.name : '',
    user: typeof raw.user_name === 'string' && raw.user_name !== '' ? raw.user_name : null,
    state,
    nodes: nodesOf(nodes, where),
    // 0 is Slurm's "not set" for a time.
    startTime: start !== null && start > 0 ? new Date(start * 1000).toISOString() : null,
  };
}

/** A number, or Slurm's `{set, infinite, number}`; null when unset or infinite. */
function numberOf(value: unknown): number | null {
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (isObject(value) && value.set === true && value.infinite !== true && typeof value.number === 'number') {
    return value.number;
  }
  return null;
}
