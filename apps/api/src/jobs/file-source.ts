import { readFile } from 'node:fs/promises';
import { JOB_PATTERNS, type JobPatternName, MAX_DECLARED_PAIRS } from '@fabscope/contracts';
import { hostsOf } from './hostlist.ts';
import {
  isObject,
  type Job,
  type JobListing,
  type JobSource,
  JobSourceError,
  jobsArray,
  readEntries,
  type SkippedJob,
} from './job.ts';
import { jobsEntryLines } from './json-entry-lines.ts';
import { parseSqueueJson } from './squeue.ts';

/** Jobs from a JSON file (fabscope's `{"jobs": [...]}` or a saved `squeue --json`), re-read when asked. */
export class FileJobSource implements JobSource {
  readonly kind = 'file';
  constructor(readonly path: string) {}

  async list(): Promise<JobListing> {
    let text: string;
    try {
      text = await readFile(this.path, 'utf8');
    } catch (error) {
      throw new JobSourceError(`jobs file ${this.path}: ${(error as Error).message}`);
    }
    const skipped: SkippedJob[] = [];
    return { jobs: parseJobsFile(text, this.path, skipped), skipped };
  }
}

/** A jobs file's text → jobs; squeue --json answers are recognised by their `job_id` fields. */
export function parseJobsFile(text: string, where = 'jobs file', skipped?: SkippedJob[]): Job[] {
  const entries = jobsArray(text, where, 'no "jobs" array');
  if (entries.some((j) => isObject(j) && 'job_id' in j)) return parseSqueueJson(text, skipped);
  const seen = new Set<string>();
  const lines = jobsEntryLines(text);
  return readEntries(
    entries,
    (i) => `${where}${lines[i] !== undefined ? ` line ${lines[i]}` : ''}: jobs[${i}]`,
    skipped,
    (raw, at) => fileJob(raw, at, seen),
  );
}

function fileJob(raw: unknown, at: string, seen: Set<string>): Job {
  if (!isObject(raw)) throw new JobSourceError(`${at} is not an object`);
  const id = typeof raw.id === 'number' ? String(raw.id) : raw.id;
  if (typeof id !== 'string' || id === '') throw new JobSourceError(`${at}: id missing`);
  if (seen.has(id)) throw new JobSourceError(`${at}: id "${id}" given twice`);
  seen.add(id);
  const nodes =
    typeof raw.nodes === 'string' ? hostsOf(raw.nodes, (m) => new JobSourceError(`${at}: ${m}`)) : raw.nodes;
  if (!Array.isArray(nodes) || !nodes.every((n) => typeof n === 'string'))
    throw new JobSourceError(`${at}: nodes must be a host list or an array of names`);
  const startTime = isoTime(raw.startTime, `${at}: startTime`);
  const endTime = isoTime(raw.endTime, `${at}: endTime`);
  if (endTime !== null && (startTime === null || endTime < startTime))
    throw new JobSourceError(`${at}: endTime ${endTime} needs a startTime before it`);
  const pattern = raw.pattern === undefined ? undefined : declaredPattern(raw, nodes, at);
  return {
    id,
    name: typeof raw.name === 'string' ? raw.name : id,
    user: typeof raw.user === 'string' ? raw.user : null,
    state: typeof raw.state === 'string' ? raw.state.toUpperCase() : 'RUNNING',
    nodes,
    startTime,
    // Absent, not null, for a job without one: the listing of a running job stays as it was.
    ...(endTime !== null ? { endTime } : {}),
    ...(pattern ? { pattern } : {}),
  };
}

/** `"pattern": "ring" | "all-to-all" | "pairs"` (with `"pairs": [["a", "b"], …]` of its own hosts). */
function declaredPattern(raw: Record<string, unknown>, nodes: readonly string[], at: string): Job['pattern'] {
  const name = raw.pattern;
  if (typeof name !== 'string' || !(JOB_PATTERNS as readonly string[]).includes(name))
    throw new JobSourceError(`${at}: pattern must be one of ${JOB_PATTERNS.join(', ')}`);
  if (name !== 'pairs') {
    if (raw.pairs !== undefined) throw new JobSourceError(`${at}: pairs given with pattern "${name}"`);
    return { name: name as JobPatternName };
  }
  const pairs = raw.pairs;
  const hosts = new Set(nodes);
  if (!Array.isArray(pairs) || pairs.length === 0 || pairs.length > MAX_DECLARED_PAIRS)
    throw new JobSourceError(
      `${at}: pattern "pairs" needs "pairs": 1 to ${MAX_DECLARED_PAIRS} [from, to] host pairs`,
    );
  pairs.forEach((pair, i) => {
    if (
      !Array.isArray(pair) ||
      pair.length !== 2 ||
      !pair.every((h) => typeof h === 'string' && hosts.has(h))
    )
      throw new JobSourceError(`${at}: pairs[${i}] must be two of the job's hosts`);
  });
  return { name: 'pairs', pairs: pairs as [string, string][] };
}

/** An optional ISO 8601 time as the API writes it; JobSourceError naming the field otherwise. */
function isoTime(value: unknown, what: string): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string' || Number.isNaN(Date.parse(value)))
    throw new JobSourceError(`${what} must be an ISO 8601 time`);
  return new Date(value).toISOString();
}
