import { createEmulator, startEmulatorServer } from '@fabscope/emulator';
import { buildScenario, fatTreeRouting } from '@fabscope/topology';
import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EmulatorClient } from '../src/emulator-client.ts';
import type { AlarmMember } from '../src/events/alarms.ts';
import { MemoryEventLog } from '../src/events/event-log.ts';
import { FabricJobs, FLOWS_INDEX_MS } from '../src/jobs/fabric-jobs.ts';
import { type Job, type JobSource, JobSourceError } from '../src/jobs/job.ts';
import type { JobFlow } from '../src/jobs/job-flows.ts';
import { jobsCrossing } from '../src/jobs/jobs-crossing.ts';
import { buildTestApp } from './helper.ts';

/** The ISL both seed flows share under the ar-demo's static routes (as jobs.test.ts). */
const SHARED_ISL = 'edge1/4->core2/1';

const congested = (id: string): AlarmMember => ({
  id,
  kind: 'isl',
  category: 'congestion',
  level: 2,
  value: 1.4,
  unknownSinceMs: null,
});

describe('GET /jobs?alarm=: the jobs an alarm affects', () => {
  let app: FastifyInstance;
  let stop: (() => Promise<void>) | undefined;

  beforeAll(async () => {
    const fabric = buildScenario('ar-demo');
    const server = await startEmulatorServer(
      createEmulator({ fabric, tables: fatTreeRouting(fabric), startTimeMs: Date.now() }),
      { tickMs: 20, fromDateNow: true },
    );
    // Alarms are kept only where there is an event log.
    app = await buildTestApp({
      fabric,
      emulator: new EmulatorClient(server.url),
      events: new MemoryEventLog(),
    });
    stop = async () => {
      await app.close();
      await server.close();
    };
    for (const payload of [
      {
        pattern: 'pairs',
        pairs: [
          ['nodeA', 'nodeC'],
          ['nodeB', 'nodeD'],
        ],
        job: 'seed',
      },
      { pattern: 'pairs', pairs: [['nodeD', 'nodeA']], job: 'other' },
    ]) {
      expect((await app.inject({ method: 'POST', url: '/api/v1/traffic', payload })).statusCode).toBe(200);
    }
  });
  afterAll(async () => {
    await stop?.();
  });

  const jobsOf = async (alarm: string) => {
    const res = await app.inject(`/api/v1/jobs?${new URLSearchParams({ alarm })}`);
    return { status: res.statusCode, body: res.json() };
  };

  it('lists the job whose flows cross the alarm’s direction, with how, and leaves out the one that does not', async () => {
    const alarms = app.alarms;
    if (!alarms) throw new Error('the test app keeps alarms');
    alarms.update(Date.now(), [congested(SHARED_ISL)]);
    const raised = alarms.list(false).find((a) => a.members.some((m) => m.id === SHARED_ISL));
    if (!raised) throw new Error('alarm not raised');
    const { status, body } = await jobsOf(raised.id);
    expect(status).toBe(200);
    expect(body.jobs.map((j: { id: string }) => j.id)).toEqual(['seed']);
    expect(body.jobs[0]).toMatchObject({ id: 'seed', crossing: { directions: 1, flows: 2 } });
    expect(body.total).toBe(1);

    // Once cleared, nothing crosses it any more: an empty list, not a 404.
    alarms.update(Date.now() + 1000, []);
    const cleared = await jobsOf(raised.id);
    expect(cleared.status).toBe(200);
    expect(cleared.body.jobs).toEqual([]);
  });

  it('answers 404 naming an alarm it does not know, and the plain list stays without `crossing`', async () => {
    const { status, body } = await jobsOf('congestion/isl@1');
    expect(status).toBe(404);
    expect(body.message).toContain('no alarm "congestion/isl@1"');
    const all = (await app.inject('/api/v1/jobs')).json();
    expect(all.jobs.map((j: { id: string }) => j.id).sort()).toEqual(['other', 'seed']);
    for (const j of all.jobs) expect(j.crossing).toBeUndefined();
  });
});

describe('jobsCrossing', () => {
  const flow = (job: string | null, path: string[]): JobFlow => ({
    from: 'a',
    to: 'b',
    job,
    bytesPerSecond: null,
    path,
    estimated: true,
  });

  it('counts, for any flows, exactly the jobs with a flow on a wanted direction, ranked', () => {
    const ids = ['d0', 'd1', 'd2', 'd3', 'd4'];
    const arbFlow = fc
      .tuple(fc.constantFrom('j1', 'j2', 'j10', null), fc.subarray(ids))
      .map(([job, path]) => flow(job, path));
    fc.assert(
      fc.property(fc.array(arbFlow, { maxLength: 30 }), fc.subarray(ids), (flows, wanted) => {
        const rows = jobsCrossing(flows, wanted);
        for (const row of rows) {
          const own = flows.filter((f) => f.job === row.job && f.path.some((d) => wanted.includes(d)));
          expect(row.flows).toBe(own.length);
          expect(row.directions).toBe(
            new Set(own.flatMap((f) => f.path.filter((d) => wanted.includes(d)))).size,
          );
        }
        const expected = new Set(
          flows.filter((f) => f.job !== null && f.path.some((d) => wanted.includes(d))).map((f) => f.job),
        );
        expect(new Set(rows.map((r) => r.job))).toEqual(expected);
        for (let i = 1; i < rows.length; i++) {
          const [a, b] = [rows[i - 1], rows[i]] as [(typeof rows)[0], (typeof rows)[0]];
          expect(a.directions > b.directions || (a.directions === b.directions && a.flows >= b.flows)).toBe(
            true,
          );
        }
      }),
    );
  });

  it('orders ties by name as people read them (j2 before j10)', () => {
    expect(jobsCrossing([flow('j10', ['x']), flow('j2', ['x'])], ['x']).map((r) => r.job)).toEqual([
      'j2',
      'j10',
    ]);
  });
});

describe('FabricJobs.flowsByDirection: the flows indexed once per FLOWS_INDEX_MS and per tables', () => {
  const fabric = buildScenario('ar-demo');
  const running = (id: string, nodes: string[]): Job => ({
    id,
    name: id,
    user: null,
    state: 'RUNNING',
    nodes,
    startTime: null,
  });

  it('reuses the index within the interval, makes it again after it or when the tables change', async () => {
    let asked = 0;
    const source: JobSource = {
      kind: 'file',
      list: async () => {
        asked++;
        return { jobs: [running('1', ['nodeA', 'nodeC']), running('2', ['nodeB', 'nodeD'])], skipped: [] };
      },
    };
    const live = { fabric, tables: fatTreeRouting(fabric) };
    const clock = { ms: 1_000_000 };
    const jobs = new FabricJobs(source, null, live, () => clock.ms);
    const first = await jobs.flowsByDirection();
    expect(jobsCrossing(first, [SHARED_ISL]).map((r) => r.job)).toEqual(['1', '2']);
    clock.ms += FLOWS_INDEX_MS - 1;
    expect(await jobs.flowsByDirection()).toBe(first);
    expect(asked).toBe(1);
    clock.ms += 1;
    const second = await jobs.flowsByDirection();
    expect(second).not.toBe(first);
    expect(asked).toBe(2);
    live.tables = fatTreeRouting(fabric);
    expect(await jobs.flowsByDirection()).not.toBe(second);
    expect(asked).toBe(3);
  });

  it('an ask that failed is not kept', async () => {
    let fail = true;
    const source: JobSource = {
      kind: 'file',
      list: async () => {
        if (fail) throw new JobSourceError('squeue failed');
        return { jobs: [running('1', ['nodeA', 'nodeC'])], skipped: [] };
      },
    };
    const jobs = new FabricJobs(source, null, { fabric, tables: fatTreeRouting(fabric) }, () => 0);
    await expect(jobs.flowsByDirection()).rejects.toThrow('squeue failed');
    fail = false;
    expect((await jobs.flowsByDirection()).flows.length).toBeGreaterThan(0);
  });
});
