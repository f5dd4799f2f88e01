import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildScenario } from '@fabscope/topology';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EmulatorClient } from '../src/emulator-client.ts';
import { FileJobSource } from '../src/jobs/file-source.ts';
import { SlurmJobSource } from '../src/jobs/slurm-source.ts';
import { buildAppWithEmulator, buildTestApp } from './helper.ts';
import { SQUEUE_V0_0_40_JOBS } from './slurm-fixtures.ts';

const SEED_PAIRS = [
  ['nodeA', 'nodeC'],
  ['nodeB', 'nodeD'],
];
/** The ISL both seed flows share under the ar-demo's static routes (seed 002). */
const SHARED_ISL = 'edge1/4->core2/1';

describe('jobs from the emulator: link → flows → job', () => {
  const fabric = buildScenario('ar-demo');
  let app: FastifyInstance;
  let emulatorUrl: string;
  let stop: (() => Promise<void>) | undefined;

  beforeAll(async () => {
    ({ app, emulatorUrl, stop } = await buildAppWithEmulator(fabric));
    const started = await app.inject({
      method: 'POST',
      url: '/api/v1/traffic',
      payload: { pattern: 'pairs', pairs: SEED_PAIRS, job: 'seed' },
    });
    expect(started.statusCode).toBe(200);
    expect(started.json().flows.map((f: { job: string }) => f.job)).toEqual(['seed', 'seed']);
    await app.inject({
      method: 'POST',
      url: '/api/v1/traffic',
      payload: { pattern: 'pairs', pairs: [['nodeD', 'nodeA']] },
    });
  });
  afterAll(async () => {
    await stop?.();
  });

  const get = async (url: string) => {
    const res = await app.inject(`/api/v1${url}`);
    return { status: res.statusCode, body: res.json() };
  };

  it('/jobs lists the seed pairs as job seed on nodeA–nodeD, and the unnamed request as a job of its own', async () => {
    const { status, body } = await get('/jobs');
    expect(status).toBe(200);
    expect(body.source).toBe('emulator');
    const seed = body.jobs.find((j: { id: string }) => j.id === 'seed');
    expect(seed).toMatchObject({
      id: 'seed',
      name: 'seed',
      state: 'RUNNING',
      nodes: ['nodeA', 'nodeB', 'nodeC', 'nodeD'],
    });
    expect(Date.parse(seed.startTime)).toBeGreaterThan(Date.now() - 60_000);
    expect(body.jobs.map((j: { id: string }) => j.id).sort()).toEqual(['pairs-1', 'seed']);
  });

  it(`/links/flows?id=${SHARED_ISL} lists both seed flows under static routing, with rate and job`, async () => {
    const { status, body } = await get(`/links/flows?id=${encodeURIComponent(SHARED_ISL)}`);
    expect(status).toBe(200);
    expect(body.estimated).toBe(false);
    expect(body.flows.map((f: { from: string; to: string }) => `${f.from}>${f.to}`).sort()).toEqual([
      'nodeA>nodeC',
      'nodeB>nodeD',
    ]);
    for (const f of body.flows) {
      expect(f).toMatchObject({ job: 'seed', estimated: false });
      expect(f.path).toContain(SHARED_ISL);
      // Two 100 Gb/s flows share one 100 Gb/s ISL: about half its payload rate each.
      expect(f.bytesPerSecond).toBeGreaterThan(4e9);
      expect(f.bytesPerSecond).toBeLessThan(7e9);
    }
    expect(body.jobs).toEqual([{ job: 'seed', flows: 2, bytesPerSecond: expect.any(Number) }]);
  });

  it('/links/flows refuses an unknown direction; /jobs/{id} and /links?job answer 404 for an unknown job', async () => {
    expect((await get('/links/flows?id=edge1/4--core2/1')).status).toBe(404);
    expect((await get('/jobs/nope')).status).toBe(404);
    expect((await get('/links?job=nope')).status).toBe(404);
  });

  it('/links?job=seed returns exactly the directions of its flows’ paths', async () => {
    const flows = (await get('/traffic')).body.flows.filter((f: { job: string }) => f.job === 'seed');
    const expected = new Set<string>(flows.flatMap((f: { path: string[] }) => f.path));
    const { status, body } = await get('/links?job=seed&sort=id');
    expect(status).toBe(200);
    expect(body.links.map((l: { id: string }) => l.id).sort()).toEqual([...expected].sort());
    expect(expected.has(SHARED_ISL)).toBe(true);
  });

  // Up edge1→core2 and down core2→edge2: the two ISL directions of seed 002's collision.
  it('with squeue as the job source too, its jobs without live flows are estimated beside the live ones', async () => {
    const fixture = new URL('fixtures/slurm/squeue-v0.0.40.json', import.meta.url).pathname;
    const both = await buildTestApp({
      fabric,
      emulator: new EmulatorClient(emulatorUrl),
      jobs: new FileJobSource(fixture),
    });
    try {
      const body = (await both.inject(`/api/v1/links/flows?id=${encodeURIComponent(SHARED_ISL)}`)).json();
      expect(body.estimated).toBe(true);
      expect(
        body.flows
          .map(
            (f: { job: string; from: string; to: string; estimated: boolean }) =>
              `${f.job}:${f.from}>${f.to}:${f.estimated}`,
          )
          .sort(),
      ).toEqual([
        '1001:nodeA>nodeC:true',
        '1002_3:nodeB>nodeD:true',
        'seed:nodeA>nodeC:false',
        'seed:nodeB>nodeD:false',
      ]);
      expect((await both.inject('/api/v1/jobs')).json().source).toBe('file');
    } finally {
      await both.close();
    }
  });

  it('/jobs/seed: its nodes, its links with its share of each, and the contention predicted', async () => {
    const { status, body } = await get('/jobs/seed');
    expect(status).toBe(200);
    expect(body.nodes.map((n: { name: string }) => n.name)).toEqual(['nodeA', 'nodeB', 'nodeC', 'nodeD']);
    expect(body.estimated).toBe(false);
    expect(body.flows).toBe(2);
    const shared = body.links.find((l: { id: string }) => l.id === SHARED_ISL);
    expect(shared).toMatchObject({ kind: 'isl', flows: 2, totalFlows: 2, share: 1 });
    // The other job (nodeD→nodeA) does not reach nodeC: the last hop to it is all seed's.
    const hostIn = body.links.find(
      (l: { id: string }) => l.id.startsWith('edge2/') && l.id.endsWith('->nodeC/1'),
    );
    expect(hostIn).toMatchObject({ flows: 1, share: 1 });
    expect(body.contention).toMatchObject({ engine: 'fattree', flowCount: 2, maxIslLoad: 2, sharedIsls: 2 });
  });
});

describe('jobs from Slurm (squeue run with execFile)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'fabscope-squeue-'));
  const fixture = new URL('fixtures/slurm/squeue-v0.0.40.json', import.meta.url).pathname;
  const squeue = join(dir, 'squeue');
  const slow = join(dir, 'slow-squeue');
  writeFileSync(squeue, `#!/bin/sh\n[ "$1" = "--json" ] || exit 2\ncat '${fixture}'\n`);
  writeFileSync(slow, '#!/bin/sh\nexec sleep 5\n');
  chmodSync(squeue, 0o755);
  chmodSync(slow, 0o755);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('a squeue --json answer with three jobs round-trips to /api/v1/jobs', async () => {
    const withSlurm = await buildTestAppWithJobs(new SlurmJobSource({ command: squeue }));
    try {
      const res = await withSlurm.inject('/api/v1/jobs');
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({
        source: 'slurm',
        jobs: SQUEUE_V0_0_40_JOBS,
        total: 3,
      });
      // Without an emulator, a link's flows are the running jobs' node pairs on static routes.
      const flows = (
        await withSlurm.inject(`/api/v1/links/flows?id=${encodeURIComponent(SHARED_ISL)}`)
      ).json();
      expect(flows.estimated).toBe(true);
      expect(
        flows.flows
          .map((f: { from: string; to: string; job: string }) => `${f.job}:${f.from}>${f.to}`)
          .sort(),
      ).toEqual(['1001:nodeA>nodeC', '1002_3:nodeB>nodeD']);
      expect(flows.flows.every((f: { bytesPerSecond: unknown }) => f.bytesPerSecond === null)).toBe(true);
      const job = (await withSlurm.inject('/api/v1/jobs/1001')).json();
      expect(job.estimated).toBe(true);
      expect(job.links.find((l: { id: string }) => l.id === SHARED_ISL)).toMatchObject({
        flows: 1,
        totalFlows: 2,
        share: 0.5,
      });
    } finally {
      await withSlurm.close();
    }
  });

  it('a squeue that hangs is cut at the timeout: 502 with the reason', async () => {
    const app = await buildTestAppWithJobs(new SlurmJobSource({ command: slow, timeoutMs: 200 }));
    try {
      const res = await app.inject('/api/v1/jobs');
      expect(res.statusCode).toBe(502);
      expect(res.json().message).toMatch(/timed out after 200 ms/);
    } finally {
      await app.close();
    }
  });
});

const buildTestAppWithJobs = (jobs: SlurmJobSource): Promise<FastifyInstance> => buildTestApp({ jobs });
