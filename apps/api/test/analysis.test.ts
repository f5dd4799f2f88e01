import { rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEmulator } from '@fabscope/emulator';
import { buildForwardingTables, buildScenario, type Fabric, fatTreeRouting } from '@fabscope/topology';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, configFromEnv } from '../src/config.ts';
import { FileJobSource } from '../src/jobs/file-source.ts';
import { buildTestApp } from './helper.ts';

const build = (fabric: Fabric): Promise<FastifyInstance> =>
  buildTestApp({ fabric, tables: buildForwardingTables(fabric) });

describe('GET /api/v1/route with links, rates and latency', () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await build(buildScenario('single-switch-32'));
  });
  afterAll(() => app.close());

  it('gives per-hop links and rates and latencyNs 930 through one switch', async () => {
    const res = await app.inject('/api/v1/route?from=node01&to=node02');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.latencyNs).toBe(930);
    expect(body.engine).toBe('fattree'); // auto: a single switch is a one-tier fat tree
    expect(body.hops).toEqual([
      {
        node: 'node01',
        type: 'host',
        guid: '0x0011750100000000',
        outPort: 1,
        link: 'node01/1->switch1/1',
        rateGbps: 100,
        network: 'omnipath',
        // Live load of the link leaving the hop: unknown without samples.
        utilization: null,
        bytesPerSecond: null,
        transmitWaitFraction: null,
      },
      {
        node: 'switch1',
        type: 'switch',
        guid: '0x0011750101000000',
        inPort: 1,
        outPort: 2,
        link: 'switch1/2->node02/1',
        rateGbps: 100,
        network: 'omnipath',
        utilization: null,
        bytesPerSecond: null,
        transmitWaitFraction: null,
      },
      { node: 'node02', type: 'host', guid: '0x0011750100000001', inPort: 1, network: 'omnipath' },
    ]);
    expect(body.links).toEqual(['node01/1->switch1/1', 'switch1/2->node02/1']);
  });

  it('finds hosts by GUID too', async () => {
    const res = await app.inject('/api/v1/route?from=0x0011750100000000&to=node02');
    expect(res.json().from).toBe('node01');
  });
});

describe('GET /api/v1/analysis', () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await build(buildScenario('ar-demo'));
  });
  afterAll(() => app.close());

  it('finds the seed pairs sharing edge1→core2: maxLinkLoad 2, 50 Gb/s each', async () => {
    const res = await app.inject(
      `/api/v1/analysis?pattern=${encodeURIComponent('pairs:nodeA-nodeC,nodeB-nodeD')}`,
    );
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({
      pattern: 'pairs:nodeA-nodeC,nodeB-nodeD',
      engine: 'fattree',
      maxLinkLoad: 2,
      truncated: false,
    });
    expect(body.collisions[0]).toEqual({
      link: 'edge1/4->core2/1',
      pairs: [
        ['nodeA', 'nodeC'],
        ['nodeB', 'nodeD'],
      ],
    });
    // The shared ISL's 99 Gb/s of payload (12.38 GB/s: data rate × RDMA share), halved.
    expect(body.flows.map((f: { rateGbps: number }) => f.rateGbps)).toEqual([49.5, 49.5]);
  });

  it('limits the lists it returns', async () => {
    const body = (await app.inject('/api/v1/analysis?pattern=all-to-all&limit=3')).json();
    expect(body.flowCount).toBe(12);
    expect(body.flows).toHaveLength(3);
    expect(body.truncated).toBe(true);
  });

  it.each([
    ['/api/v1/analysis?pattern=storm', 400, /^querystring\/pattern "storm" is not a pattern: pairs:A-B/],
    ['/api/v1/analysis?pattern=shift:0', 400, /"shift:0" is not a pattern/],
    // Of the right form, naming a host the fabric does not have: nothing to analyse.
    ['/api/v1/analysis?pattern=pairs:nodeA-nodeZ', 404, /^pattern: unknown node "nodeZ"/],
    ['/api/v1/analysis?pattern=incast:edge1', 400, /is a switch/],
    ['/api/v1/analysis', 400, /must have required property 'pattern'/],
    ['/api/v1/analysis?pattern=bisection&limit=0', 400, /limit/],
  ])('%s → %i with a reason', async (url, status, reason) => {
    const res = await app.inject(url);
    expect(res.statusCode).toBe(status);
    expect(res.json().message).toMatch(reason);
  });

  it('is described in the OpenAPI document', async () => {
    const doc = (await app.inject('/api/v1/openapi.json')).json();
    expect(doc.paths['/api/v1/analysis'].get.parameters.map((p: { name: string }) => p.name)).toEqual([
      'pattern',
      'limit',
    ]);
  });
});

describe('POST /api/v1/analysis: plan a job on a node list', () => {
  let app: FastifyInstance;
  const jobsFile = join(tmpdir(), `fabscope-jobs-${process.pid}.json`);
  beforeAll(async () => {
    writeFileSync(
      jobsFile,
      JSON.stringify({
        jobs: [
          { id: '77', name: 'cfd', nodes: 'node[03,01,02]' },
          { id: '78', nodes: 'elsewhere[1-2]' },
        ],
      }),
    );
    app = await buildTestApp({
      fabric: buildScenario('single-switch-32'),
      jobs: new FileJobSource(jobsFile),
    });
  });
  afterAll(async () => {
    await app.close();
    rmSync(jobsFile, { force: true });
  });
  const post = (payload: object) => app.inject({ method: 'POST', url: '/api/v1/analysis', payload });

  it('ranges a collective pattern over the given hosts in LID order (a host list or names)', async () => {
    for (const nodes of ['node[03,01-02]', ['node02', 'node03', 'node01']]) {
      const body = (await post({ pattern: 'shift:1', nodes })).json();
      expect(body.hosts).toEqual(['node01', 'node02', 'node03']);
      expect(body.flows.map((f: { from: string; to: string }) => `${f.from}>${f.to}`)).toEqual([
        'node01>node02',
        'node02>node03',
        'node03>node01',
      ]);
    }
  });

  it('plans on a job’s nodes; incast sends from every other host of the job', async () => {
    const body = (await post({ pattern: 'incast:node01', job: '77' })).json();
    expect(body.hosts).toEqual(['node01', 'node02', 'node03']);
    expect(body.flows.map((f: { from: string }) => f.from)).toEqual(['node02', 'node03']);
    // Two senders into one 100 Gb/s port (99 Gb/s of payload): 49.5 each, with or without AR.
    expect(
      body.flows.map((f: { rateGbps: number; adaptiveRateGbps: number }) => [f.rateGbps, f.adaptiveRateGbps]),
    ).toEqual([
      [49.5, 49.5],
      [49.5, 49.5],
    ]);
  });

  it('all-to-all on single-switch-32: no ISL, but 31 flows share every host port', async () => {
    const body = (await post({ pattern: 'all-to-all' })).json();
    expect(body).toMatchObject({ flowCount: 992, maxIslLoad: 0, maxLinkLoad: 31, truncated: false });
    expect(body.flows).toHaveLength(992);
  });

  it.each([
    [{ pattern: 'shift:1', nodes: 'node[1-' }, 400, /nodes: unclosed/],
    [{ pattern: 'shift:1', nodes: ['node01', 'switch1'] }, 400, /is a switch/],
    [{ pattern: 'shift:1', nodes: ['nodeZ'] }, 404, /unknown node "nodeZ"/],
    [{ pattern: 'shift:1', job: '78' }, 400, /no host of this fabric/],
    [{ pattern: 'shift:1', job: 'nope' }, 404, /no job/],
    [{ pattern: 'shift:1', job: '77', nodes: ['node01'] }, 400, /^body: give nodes or job, not both$/],
    [
      { pattern: 'shift:3', nodes: ['node01', 'node02', 'node03'] },
      400,
      /maps each of the 3 hosts to itself/,
    ],
  ])('%j → %i with a reason', async (payload, status, reason) => {
    const res = await post(payload);
    expect(res.statusCode).toBe(status);
    expect(res.json().message).toMatch(reason);
  });
});

describe('POST /api/v1/analysis at fat-tree-1152 scale', () => {
  const fabric = buildScenario('fat-tree-1152');
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await buildTestApp({ fabric, tables: fatTreeRouting(fabric) });
  });
  afterAll(() => app.close());

  it('permutation:7 lists every one of the 1,152 flows: the same pairs the emulator starts', async () => {
    const body = (
      await app.inject({ method: 'POST', url: '/api/v1/analysis', payload: { pattern: 'permutation:7' } })
    ).json();
    // Links are listed to `limit` (1000 of ~4,600 loaded directions); the flows are all there.
    expect(body.flowCount).toBe(1152);
    expect(body.flows).toHaveLength(1152);
    const emulator = createEmulator({ fabric, tables: fatTreeRouting(fabric) });
    const started = emulator.startFlows({ pattern: 'permutation', seed: 7 });
    expect(body.flows.map((f: { from: string; to: string }) => `${f.from}>${f.to}`)).toEqual(
      started.map((f) => `${f.from}>${f.to}`),
    );
    // Static D-mod-K routing collides on some ISLs; adaptive routing spreads them.
    expect(body.adaptive.aggregateGbps).toBeGreaterThan(body.aggregateGbps);
    expect(body.adaptive.maxIslLoad).toBeLessThan(body.maxIslLoad);
  });
});

describe('FABSCOPE_TOPOLOGY and FABSCOPE_ROUTING', () => {
  it('are read and checked at start', () => {
    const file = join(tmpdir(), `fabscope-topology-${process.pid}.topo`);
    writeFileSync(file, 'Switch 8 "s1"\n[1] "h1"[1]\n\nCa 1 "h1"\n[1] "s1"[1]\n');
    expect(configFromEnv({ FABSCOPE_TOPOLOGY: file, FABSCOPE_ROUTING: 'minhop' })).toMatchObject({
      topologyPath: file,
      routing: 'minhop',
    });
    expect(configFromEnv({}).routing).toBe('auto');
    expect(() => configFromEnv({ FABSCOPE_TOPOLOGY: '/nonexistent/fabric.topo' })).toThrow(ConfigError);
    expect(() => configFromEnv({ FABSCOPE_ROUTING: 'ospf' })).toThrow(
      /FABSCOPE_ROUTING must be minhop, fattree or auto/,
    );
  });
});
