import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildForwardingTables, buildScenario, type Fabric } from '@fabscope/topology';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, configFromEnv } from '../src/config.ts';
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
      },
      {
        node: 'switch1',
        type: 'switch',
        guid: '0x0011750101000000',
        inPort: 1,
        outPort: 2,
        link: 'switch1/2->node02/1',
        rateGbps: 100,
      },
      { node: 'node02', type: 'host', guid: '0x0011750100000001', inPort: 1 },
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
    expect(body.flows.map((f: { rateGbps: number }) => f.rateGbps)).toEqual([50, 50]);
  });

  it('limits the lists it returns', async () => {
    const body = (await app.inject('/api/v1/analysis?pattern=all-to-all&limit=3')).json();
    expect(body.flowCount).toBe(12);
    expect(body.flows).toHaveLength(3);
    expect(body.truncated).toBe(true);
  });

  it.each([
    ['/api/v1/analysis?pattern=storm', /^pattern: unknown pattern "storm"/],
    ['/api/v1/analysis?pattern=shift:0', /^pattern: shift needs a positive integer/],
    ['/api/v1/analysis?pattern=pairs:nodeA-nodeZ', /^pattern: unknown node "nodeZ"/],
    ['/api/v1/analysis?pattern=incast:edge1', /is a switch/],
    ['/api/v1/analysis', /must have required property 'pattern'/],
    ['/api/v1/analysis?pattern=bisection&limit=0', /limit/],
  ])('%s → 400 with a reason', async (url, reason) => {
    const res = await app.inject(url);
    expect(res.statusCode).toBe(400);
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
