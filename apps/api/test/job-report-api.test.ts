import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildScenario } from '@fabscope/topology';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryEventLog } from '../src/events/event-log.ts';
import { FileJobSource, parseJobsFile } from '../src/jobs/file-source.ts';
import { type Job, JobSourceError } from '../src/jobs/job.ts';
import { parseSacctJson } from '../src/jobs/sacct.ts';
import { SlurmJobSource } from '../src/jobs/slurm-source.ts';
import { LinkIndex } from '../src/lib/link-index.ts';
import { reportWindow } from '../src/routes/jobs/report/report-inputs.ts';
import { EmbeddedStore } from '../src/store/embedded.ts';
import { buildAppWithEmulator, buildTestApp } from './helper.ts';
import { collectorPage } from './job-report/collector-page.ts';

/** 2026-01-01T08:00:00Z: the fixture's jobs ran from then (sacct-v0.0.38.json). */
const START_MS = 1_767_254_400_000;
/** The ISL nodeA→nodeC and nodeB→nodeD share under ar-demo's static routes (jobs.test.ts). */
const SHARED_ISL = 'edge1/4->core2/1';
const SACCT_FIXTURE = new URL('fixtures/slurm/sacct-v0.0.38.json', import.meta.url).pathname;
const iso = (seconds: number) => new Date(START_MS + seconds * 1000).toISOString();

/** The history of ar-demo on a virtual clock, 120 s of it: SHARED_ISL congested (98 %) from 20 s to 80 s. */
async function storeWithHistory(fabric = buildScenario('ar-demo')) {
  const linkIndex = new LinkIndex(fabric);
  const clock = { now: START_MS };
  const busy = new Set([SHARED_ISL]);
  const events = new MemoryEventLog();
  let seconds = 0;
  let hotSeconds = 0;
  const store = new EmbeddedStore({
    targets: ['http://collector:9464/metrics'],
    scrapeIntervalMs: 1000,
    now: () => clock.now,
    fetch: (async () =>
      new Response(collectorPage(fabric, linkIndex, seconds, busy, hotSeconds))) as unknown as typeof fetch,
    events,
  });
  const history = store.timeQueries(linkIndex);
  for (let s = 0; s <= 120; s++) {
    clock.now = START_MS + s * 1000;
    seconds = s;
    if (s > 20 && s <= 80) hotSeconds++;
    await store.scrapeOnce();
    await history.settled();
  }
  return { fabric, linkIndex, store, events };
}

const JOBS_FILE = {
  jobs: [
    {
      id: '1001',
      name: 'cfd',
      nodes: 'nodeA,nodeC',
      state: 'COMPLETED',
      startTime: iso(10),
      endTime: iso(100),
    },
    { id: '1002', nodes: ['nodeB', 'nodeD'], state: 'COMPLETED', startTime: iso(15), endTime: iso(110) },
    { id: '1003', nodes: 'nodeA,nodeB', state: 'COMPLETED', startTime: iso(0), endTime: iso(120) },
    { id: '1004', nodes: 'nodeC,nodeD', state: 'COMPLETED', startTime: iso(90), endTime: iso(120) },
    { id: '1005', nodes: 'nodeA,node999', state: 'PENDING' },
    // 1001's hosts, but declared to send only nodeC → nodeA: a route that misses the congested ISL.
    {
      id: '1008',
      nodes: 'nodeA,nodeC',
      state: 'COMPLETED',
      startTime: iso(10),
      endTime: iso(100),
      pattern: 'pairs',
      pairs: [['nodeC', 'nodeA']],
    },
  ],
};

describe("a finished job's report from a jobs file with start and end times, on the embedded store's history", () => {
  let app: FastifyInstance;
  let dir: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'fabscope-report-'));
    const file = join(dir, 'jobs.json');
    writeFileSync(file, JSON.stringify(JOBS_FILE));
    const { fabric, linkIndex, store, events } = await storeWithHistory();
    app = await buildTestApp({ fabric, linkIndex, store, events, jobs: new FileJobSource(file) });
  });
  afterAll(async () => {
    await app?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const get = async (url: string) => {
    const res = await app.inject(`/api/v1${url}`);
    return { status: res.statusCode, body: res.json() };
  };

  it('job 1001 was behind the ISL it shared with job 1002 under static routing: 1002 is the culprit', async () => {
    const { status, body } = await get('/jobs/1001/report');
    expect(status).toBe(200);
    expect(body.job).toMatchObject({
      id: '1001',
      startTime: iso(10),
      endTime: iso(100),
      hosts: 2,
      hostsOnFabric: 2,
    });
    expect(body.window).toMatchObject({ from: iso(10), to: iso(100), asked: false, stepSeconds: 1 });
    expect(body.pattern).toMatchObject({ kind: 'assumed', name: 'every pair', pairs: 2 });
    expect(body.routes).toMatchObject({ source: 'computed', total: 2, omitted: 0 });
    const worst = body.directions[0];
    expect(worst.id).toBe(SHARED_ISL);
    // Congested from 21 s to 80 s: 60 of the window's 90 seconds.
    // The store's rates trail a counter's change by a sample or two (its rate window).
    expect(worst.behindSeconds).toBeGreaterThanOrEqual(54);
    expect(worst.behindSeconds).toBeLessThanOrEqual(61);
    expect(worst.utilization.max).toBeGreaterThan(0.95);
    expect(worst.users).toEqual([{ job: '1002', share: 0.5, flows: 1 }]);
    expect(body.culprits[0]).toMatchObject({ job: '1002', direction: SHARED_ISL, share: 0.5 });
    expect(body.culprits.map((c: { job: string }) => c.job)).not.toContain('1003');
    expect(body.victims[0]).toMatchObject({ job: '1002', direction: SHARED_ISL });
    expect(body.verdict.cause).toBe('congestion');
    expect(body.verdict.text).toMatch(
      /^job 1001 spent 6\d % of the window behind edge1\/4 → core2\/1 at ≥ 95 % utilization; job 1002's traffic carried 50 % of it$/,
    );
    expect(body.unknowns).toMatchObject({ hostsNotOnFabric: [], hostsNotOnFabricTotal: 0 });
  });

  it('its evidence instant opens the congested ISL in time travel', async () => {
    const { body } = await get('/jobs/1001/report');
    const instant = body.evidence.find((e: { direction: string }) => e.direction === SHARED_ISL);
    expect(Date.parse(instant.time)).toBeGreaterThanOrEqual(Date.parse(iso(20)));
    expect(Date.parse(instant.time)).toBeLessThanOrEqual(Date.parse(iso(81)));
    const links = await get(`/links?time=${encodeURIComponent(instant.time)}&limit=1`);
    expect(links.body.links[0]).toMatchObject({ id: SHARED_ISL });
    expect(links.body.links[0].utilization).toBeGreaterThan(0.95);
  });

  it('a clean job on the same fabric: "no fabric cause found"; a job after the congestion names no culprit', async () => {
    const clean = await get('/jobs/1003/report');
    expect(clean.body.verdict).toEqual({
      cause: 'none',
      text: 'no fabric cause found for job 1003: none of its 4 link directions was congested, erroring or down in the window',
    });
    expect(clean.body.culprits).toEqual([]);
    const after = await get('/jobs/1004/report');
    expect(after.body.verdict.cause).toBe('none');
  });

  it('404 for an unknown job and 400 for a window that cannot be, each with its reason', async () => {
    const unknown = await get('/jobs/nope/report');
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toBe('no job "nope" in the file job source');
    const backwards = await get(`/jobs/1001/report?from=${iso(30)}&to=${iso(20)}`);
    expect(backwards.status).toBe(400);
    expect(backwards.body.message).toMatch(/^to \(.*\) is not after from/);
    const pending = await get('/jobs/1005/report');
    expect(pending.status).toBe(400);
    expect(pending.body.message).toBe('job "1005" has no start time (state PENDING): give from');
    const garbage = await get('/jobs/1001/report?from=yesterday');
    expect(garbage.status).toBe(400);
    const long = await get(`/jobs/1001/report?from=${iso(-40 * 86_400)}&to=${iso(0)}`);
    expect(long.status).toBe(400);
    expect(long.body.message).toBe('the window is longer than 31 days: give a shorter from/to');
  });

  it('a declared pattern is the routes it takes: pairs that miss the congested ISL find no cause', async () => {
    const { status, body } = await get('/jobs/1008/report');
    expect(status).toBe(200);
    expect(body.pattern).toMatchObject({ kind: 'declared', name: 'pairs', pairs: 1 });
    expect(body.routes.listed).toEqual([
      {
        from: 'nodeC',
        to: 'nodeA',
        path: ['nodeC/1->edge2/1', 'edge2/4->core2/2', 'core2/1->edge1/4', 'edge1/1->nodeA/1'],
      },
    ]);
    expect(body.routes.adaptiveRouting.state).toBe('unavailable');
    expect(body.verdict.cause).toBe('none');
    // 1002 shares none of these directions: not a culprit, not even a user.
    expect(
      body.directions.flatMap((d: { users: { job: string }[] }) => d.users.map((u) => u.job)),
    ).not.toContain('1002');
  });

  it('an asked window, and hosts the fabric does not have said as unknown', async () => {
    const { status, body } = await get(`/jobs/1005/report?from=${iso(0)}&to=${iso(60)}`);
    expect(status).toBe(200);
    expect(body.window).toMatchObject({ from: iso(0), to: iso(60), asked: true });
    expect(body.unknowns).toMatchObject({ hostsNotOnFabric: ['node999'], hostsNotOnFabricTotal: 1 });
    expect(body.job).toMatchObject({ hosts: 2, hostsOnFabric: 1 });
    // One known host: no pair to route, nothing to judge.
    expect(body.routes.total).toBe(0);
    expect(body.verdict.cause).toBe('unknown');
  });
});

describe("a finished job from Slurm's accounting (sacct --json of Slurm 22.05)", () => {
  it('reads the jobs: ids of array tasks, end times, none for a running one, no hosts for one that never ran', () => {
    const jobs = parseSacctJson(readFileSync(SACCT_FIXTURE, 'utf8'));
    expect(jobs.map((j) => [j.id, j.state, j.nodes.join(','), j.startTime, j.endTime])).toEqual([
      ['1001', 'COMPLETED', 'nodeA,nodeC', '2026-01-01T08:00:00.000Z', '2026-01-01T08:30:00.000Z'],
      ['1002_3', 'COMPLETED', 'nodeB,nodeD', '2026-01-01T08:01:00.000Z', '2026-01-01T08:28:20.000Z'],
      ['1006', 'CANCELLED', '', null, '2026-01-01T08:01:40.000Z'],
      ['1007', 'RUNNING', 'node001,node002,nodeX', '2026-01-01T08:26:40.000Z', null],
    ]);
  });

  it('an entry it cannot read fails naming it', () => {
    const broken = JSON.stringify({ jobs: [{ job_id: 1, state: {}, nodes: 'n1' }] });
    expect(() => parseSacctJson(broken)).toThrow(
      new JobSourceError('sacct --json jobs[0]: state.current missing'),
    );
    expect(() => parseSacctJson('{')).toThrow(/^sacct --json: not JSON/);
  });

  it("GET /jobs/{id}/report of a job squeue has forgotten: its run from sacct, the history's gaps said", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'fabscope-sacct-'));
    const squeue = join(dir, 'squeue');
    const sacct = join(dir, 'sacct');
    writeFileSync(squeue, '#!/bin/sh\necho \'{"jobs": []}\'\n');
    // Like sacct: the fixture for job 1001, an empty answer for a job it has no record of.
    writeFileSync(
      sacct,
      `#!/bin/sh\n[ "$1 $2 $3" = "--json -X -j" ] || exit 2\n[ "$4" = 1001 ] && exec cat '${SACCT_FIXTURE}'\necho '{"jobs": []}'\n`,
    );
    chmodSync(squeue, 0o755);
    chmodSync(sacct, 0o755);
    const { fabric, linkIndex, store, events } = await storeWithHistory();
    const app = await buildTestApp({
      fabric,
      linkIndex,
      store,
      events,
      jobs: new SlurmJobSource({ command: squeue }),
    });
    try {
      const res = await app.inject('/api/v1/jobs/1001/report');
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(body.job).toMatchObject({ id: '1001', state: 'COMPLETED', endTime: '2026-01-01T08:30:00.000Z' });
      expect(body.window).toMatchObject({ from: '2026-01-01T08:00:00.000Z', to: '2026-01-01T08:30:00.000Z' });
      expect(body.directions[0]).toMatchObject({ id: SHARED_ISL });
      // The store holds 2 of the run's 30 minutes: the rest is unknown, not calm.
      expect(body.unknowns.unknownSeconds).toBeGreaterThan(1600);
      expect(body.verdict.cause).toBe('unknown');
      expect(body.verdict.text).toMatch(
        /^no fabric cause found for job 1001 in the \d+ % of the window the history covers/,
      );
      const missing = await app.inject('/api/v1/jobs/999/report');
      expect(missing.statusCode).toBe(404);
      expect(missing.json().message).toBe(
        'no job "999" in the slurm job source nor in its accounting (sacct)',
      );
    } finally {
      await app.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("a running job's report on the emulator: measured routes, and nothing known is nothing blamed", () => {
  it('names the other job on its ISL as a user, blames nobody while no history is known', async () => {
    const { app, stop } = await buildAppWithEmulator(buildScenario('ar-demo'));
    try {
      for (const [job, pair] of [
        ['victim', ['nodeA', 'nodeC']],
        ['bully', ['nodeB', 'nodeD']],
      ] as const) {
        const started = await app.inject({
          method: 'POST',
          url: '/api/v1/traffic',
          payload: { pattern: 'pairs', pairs: [pair], job },
        });
        expect(started.statusCode).toBe(200);
      }
      const res = await app.inject('/api/v1/jobs/victim/report');
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(body.routes).toMatchObject({ source: 'measured', total: 1 });
      expect(body.routes.listed[0].path).toContain(SHARED_ISL);
      expect(body.pattern.kind).toBe('measured');
      const isl = body.directions.find((d: { id: string }) => d.id === SHARED_ISL);
      expect(isl.users).toEqual([{ job: 'bully', share: expect.closeTo(0.5, 1), flows: 1 }]);
      // The test's store reaches no collector: every figure unknown (null), never 0, and no one blamed.
      expect(isl.utilization).toMatchObject({ mean: null, p95: null, max: null });
      expect(body.culprits).toEqual([]);
      expect(body.verdict.cause).toBe('unknown');
    } finally {
      await stop();
    }
  });
});

describe('the jobs file with end times', () => {
  it('takes endTime after startTime and a declared pattern of its own hosts; refuses others, naming the entry', () => {
    const ok = parseJobsFile(
      JSON.stringify({ jobs: [{ id: 'a', nodes: 'n1', startTime: iso(0), endTime: iso(5) }] }),
    );
    expect(ok[0]).toMatchObject({ startTime: iso(0), endTime: iso(5) });
    const running = parseJobsFile(JSON.stringify({ jobs: [{ id: 'b', nodes: 'n1', startTime: iso(0) }] }));
    expect(running[0]).not.toHaveProperty('endTime');
    expect(() =>
      parseJobsFile(
        JSON.stringify({ jobs: [{ id: 'a', nodes: 'n1', startTime: iso(5), endTime: iso(0) }] }),
        'jobs.json',
      ),
    ).toThrow(`jobs.json line 1: jobs[0]: endTime ${iso(0)} needs a startTime before it`);
    const declared = (pattern: unknown, pairs?: unknown) =>
      parseJobsFile(JSON.stringify({ jobs: [{ id: 'a', nodes: 'n1,n2', pattern, pairs }] }), 'jobs.json');
    expect(declared('ring')[0]?.pattern).toEqual({ name: 'ring' });
    expect(declared('pairs', [['n2', 'n1']])[0]?.pattern).toEqual({ name: 'pairs', pairs: [['n2', 'n1']] });
    expect(() => declared('tree')).toThrow(
      'jobs.json line 1: jobs[0]: pattern must be one of ring, all-to-all, pairs',
    );
    expect(() => declared('pairs', [['n1', 'n9']])).toThrow(
      "jobs.json line 1: jobs[0]: pairs[0] must be two of the job's hosts",
    );
    expect(() => declared('ring', [['n1', 'n2']])).toThrow(
      'jobs.json line 1: jobs[0]: pairs given with pattern "ring"',
    );
    expect(() =>
      parseJobsFile(JSON.stringify({ jobs: [{ id: 'a', nodes: 'n1', endTime: 'soon' }] }), 'jobs.json'),
    ).toThrow('jobs.json line 1: jobs[0]: endTime must be an ISO 8601 time');
  });
});

describe("the report's window", () => {
  const job: Job = {
    id: '7',
    name: '7',
    user: null,
    state: 'RUNNING',
    nodes: [],
    startTime: '2026-01-01T00:00:00.000Z',
  };
  it("is the job's run; a run longer than a report covers is cut to its last 31 days and says so", () => {
    const nowMs = Date.parse('2026-01-10T00:00:00Z');
    expect(reportWindow(job, {}, nowMs)).toEqual({
      fromMs: Date.parse(job.startTime as string),
      toMs: nowMs,
      asked: false,
    });
    const later = Date.parse('2026-03-01T00:00:00Z');
    expect(reportWindow(job, {}, later)).toEqual({
      fromMs: later - 31 * 86_400_000,
      toMs: later,
      asked: false,
      note: 'the job ran longer than 31 days: only its last 31 are reported',
    });
    expect(reportWindow(job, { to: '2026-01-02T00:00:00Z' }, later)).toMatchObject({ asked: true });
  });
});
