import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { railSubnet } from '@fabscope/lab';
import { buildForwardingTables } from '@fabscope/topology';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ArrayJobError } from '../src/jobs/job.ts';
import { jobOfSacct } from '../src/jobs/sacct.ts';
import { SlurmJobSource } from '../src/jobs/slurm-source.ts';
import { parseSqueueJson } from '../src/jobs/squeue.ts';
import { buildTestApp } from './helper.ts';

// Slurm array jobs on answers recorded from Slurm 22.05.8 (fixtures/slurm/README.md): `sbatch -a 1-2` made array job 5,
// task 5_2 being job 5 and task 5_1 job 6. Answers Slurm was not recorded giving are made from recorded entries.
const path = (name: string) => new URL(`fixtures/slurm/${name}`, import.meta.url).pathname;
const recorded = (name: string) => readFileSync(path(name), 'utf8');
type Entry = Record<string, unknown>;

/** The recorded `sacct --json -X -S … -E …` answer keeping only `keep`'s entries: what `sacct -j` prints of them. */
function sacctOf(keep: (entry: Entry) => boolean): string {
  const doc = JSON.parse(recorded('sacct-22.05.8-recorded.json'));
  return JSON.stringify({ ...doc, jobs: (doc.jobs as Entry[]).filter(keep) });
}
const ofArray5 = (e: Entry) => (e.array as { job_id: number }).job_id === 5;

/** The recorded squeue answer, array 5's pending entry replaced by its two tasks running (squeue's task fields). */
function squeueWithTasksRunning(): string {
  const doc = JSON.parse(recorded('squeue-22.05.8-recorded.json'));
  const jobs = doc.jobs as Entry[];
  const pending = jobs.find((j) => j.job_id === 5) as Entry;
  const task = (jobId: number, taskId: number, node: string): Entry => ({
    ...pending,
    job_id: jobId,
    array_task_id: taskId,
    array_task_string: '',
    job_state: 'RUNNING',
    nodes: node,
    start_time: 1_796_060_914,
  });
  return JSON.stringify({
    ...doc,
    jobs: [...jobs.filter((j) => j !== pending), task(6, 1, 'node002'), task(5, 2, 'node003')],
  });
}

describe('Slurm array tasks in sacct --json (Slurm 22.05.8)', () => {
  it('`-j 5` names the array: an ArrayJobError naming its tasks, in natural order', () => {
    const answer = sacctOf(ofArray5);
    expect(() => jobOfSacct(answer, '5')).toThrow(ArrayJobError);
    expect(() => jobOfSacct(answer, '5')).toThrow(
      'job "5" is an array job of 2 tasks (5_1, 5_2): ask for one task, e.g. "5_1"',
    );
  });

  it('`-j 5_1` is the task; its own job id (6) finds it too; a plain job is itself; none is null', () => {
    expect(jobOfSacct(recorded('sacct-22.05.8-recorded-j5_1.json'), '5_1')).toMatchObject({
      id: '5_1',
      nodes: ['node002'],
      startTime: '2026-11-29T17:48:34.000Z',
      endTime: '2026-11-29T17:48:36.000Z',
    });
    expect(jobOfSacct(recorded('sacct-22.05.8-recorded-j5_1.json'), '6')).toMatchObject({ id: '5_1' });
    expect(jobOfSacct(recorded('sacct-22.05.8-recorded-j2.json'), '2')).toMatchObject({ id: '2' });
    expect(jobOfSacct(recorded('sacct-22.05.8-recorded-nothing.json'), '999')).toBeNull();
  });

  it("squeue's running tasks are listed as ARRAY_TASK, as squeue -o %i prints them", () => {
    const ids = parseSqueueJson(squeueWithTasksRunning()).map((j) => j.id);
    expect(ids).toEqual(['1', '2', '3', '4', '5_1', '5_2']);
  });
});

describe('GET /jobs/{id} and /jobs/{id}/report of array jobs and their tasks', () => {
  const fabric = railSubnet({ hosts: 4, rails: 2, spines: 2 });
  const tables = buildForwardingTables(fabric, 'minhop');
  const dir = mkdtempSync(join(tmpdir(), 'fabscope-array-'));
  const squeueAnswer = join(dir, 'squeue.json');
  const sacctArray = join(dir, 'sacct-5.json');
  let app: FastifyInstance;

  beforeAll(async () => {
    const squeue = join(dir, 'squeue');
    const sacct = join(dir, 'sacct');
    writeFileSync(squeueAnswer, recorded('squeue-22.05.8-recorded.json'));
    writeFileSync(sacctArray, sacctOf(ofArray5));
    writeFileSync(squeue, `#!/bin/sh\n[ "$1" = "--json" ] || exit 2\nexec cat '${squeueAnswer}'\n`);
    writeFileSync(
      sacct,
      [
        '#!/bin/sh',
        '[ "$1 $2 $3" = "--json -X -j" ] || exit 2',
        `[ "$4" = 5 ] && exec cat '${sacctArray}'`,
        `[ "$4" = 5_1 ] && exec cat '${path('sacct-22.05.8-recorded-j5_1.json')}'`,
        `exec cat '${path('sacct-22.05.8-recorded-nothing.json')}'`,
        '',
      ].join('\n'),
    );
    chmodSync(squeue, 0o755);
    chmodSync(sacct, 0o755);
    // The source is asked each time (no cache in front): each test writes the squeue answer it needs.
    app = await buildTestApp({ fabric, tables, jobs: new SlurmJobSource({ command: squeue }) });
  });
  afterAll(async () => {
    await app.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('a finished task: /jobs/5_1/report is its run from sacct; /jobs/5/report names the tasks (404)', async () => {
    writeFileSync(squeueAnswer, recorded('squeue-22.05.8-recorded.json'));
    const task = await app.inject('/api/v1/jobs/5_1/report');
    expect(task.statusCode).toBe(200);
    expect(task.json().job).toMatchObject({
      id: '5_1',
      state: 'COMPLETED',
      hosts: 1,
      hostsOnFabric: 1,
      startTime: '2026-11-29T17:48:34.000Z',
    });
    expect(task.json().window).toMatchObject({
      from: '2026-11-29T17:48:34.000Z',
      to: '2026-11-29T17:48:36.000Z',
    });
    // squeue lists array 5 pending under its own id; sacct says what ran of it.
    const array = await app.inject('/api/v1/jobs/5/report');
    expect(array.statusCode).toBe(404);
    expect(array.json().message).toBe(
      'job "5" is an array job of 2 tasks (5_1, 5_2): ask for one task, e.g. "5_1"',
    );
  });

  it('running tasks: /jobs/5 names them (404), /jobs/5_2 and its report answer for the task', async () => {
    writeFileSync(squeueAnswer, squeueWithTasksRunning());
    const array = await app.inject('/api/v1/jobs/5');
    expect(array.statusCode).toBe(404);
    expect(array.json().message).toBe(
      'job "5" is an array job of 2 tasks (5_1, 5_2): ask for one task, e.g. "5_1"',
    );
    expect((await app.inject('/api/v1/jobs/5/report')).statusCode).toBe(404);
    const detail = await app.inject('/api/v1/jobs/5_2');
    expect(detail.statusCode).toBe(200);
    expect(detail.json().job).toMatchObject({ id: '5_2', nodes: ['node003'], state: 'RUNNING' });
    const report = await app.inject(
      '/api/v1/jobs/5_2/report?from=2026-11-29T17:48:40Z&to=2026-11-29T17:49:40Z',
    );
    expect(report.statusCode).toBe(200);
    expect(report.json().job).toMatchObject({ id: '5_2', hosts: 1, hostsOnFabric: 1 });
  });
});
