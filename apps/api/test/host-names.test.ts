import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { railSubnet } from '@fabscope/lab';
import { buildForwardingTables, NO_ROUTE } from '@fabscope/topology';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FileJobSource } from '../src/jobs/file-source.ts';
import { buildTestApp } from './helper.ts';

// Hosts of two adapters on two rails (node001/mlx5_0 on leaf01, node001/mlx5_1 on leaf02), asked by host.
describe('the API by host name on a subnet of two rails', () => {
  const fabric = railSubnet({ hosts: 4, rails: 2, spines: 2 });
  const tables = buildForwardingTables(fabric, 'minhop');
  const dir = mkdtempSync(join(tmpdir(), 'fabscope-hosts-'));
  let app: FastifyInstance;

  beforeAll(async () => {
    const jobs = join(dir, 'jobs.json');
    writeFileSync(
      jobs,
      JSON.stringify({ jobs: [{ id: '7', nodes: 'node[001,003],login01', state: 'RUNNING' }] }),
    );
    app = await buildTestApp({ fabric, tables, jobs: new FileJobSource(jobs) });
  });
  afterAll(async () => {
    await app?.close();
    rmSync(dir, { recursive: true, force: true });
  });
  // biome-ignore lint/suspicious/noExplicitAny: JSON answers are checked field by field below
  const get = async (url: string): Promise<{ status: number; body: any }> => {
    const res = await app.inject(`/api/v1${url}`);
    return { status: res.statusCode, body: res.json() };
  };

  it('/route host to host takes the same-device rail pair and lists the others', async () => {
    const { status, body } = await get('/route?from=node001&to=node003');
    expect(status).toBe(200);
    expect(body.hops.map((h: { node: string }) => h.node)).toEqual([
      'node001/mlx5_0',
      'leaf01',
      'node003/mlx5_0',
    ]);
    expect(body.rail).toEqual({
      from: 'node001',
      to: 'node003',
      rails: ['node001/mlx5_0->node003/mlx5_0', 'node001/mlx5_1->node003/mlx5_1'],
    });
    // One rail named: no rail field (it names one adapter), and its own leaf.
    const one = await get('/route?from=node001/mlx5_1&to=node003/mlx5_1');
    expect(one.body.hops[1].node).toBe('leaf02');
    expect(one.body.rail).toBeUndefined();
  });

  it('a rail the tables do not route falls to the next pair', async () => {
    const leaf01 = fabric.nodeByName.get('leaf01')?.index as number;
    const target = fabric.nodeByName.get('node003/mlx5_0')?.lid as number;
    const cut = { ...tables, bySwitch: tables.bySwitch.map((t, i) => (i === leaf01 && t ? t.slice() : t)) };
    (cut.bySwitch[leaf01] as Uint8Array)[target] = NO_ROUTE;
    const routed = await buildTestApp({ fabric, tables: cut });
    try {
      const body = (await routed.inject('/api/v1/route?from=node001&to=node003')).json();
      expect([body.from, body.to]).toEqual(['node001/mlx5_1', 'node003/mlx5_1']);
    } finally {
      await routed.close();
    }
  });

  it('an unknown host or a host to itself is a 404 naming it', async () => {
    const unknown = await get('/route?from=node404&to=node003');
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toBe('unknown node "node404"');
    expect((await get('/route?from=node001&to=node001')).status).toBe(404);
  });

  it('/jobs/{id}: each host known on both rails, traffic on both rails, an unknown host said so', async () => {
    const { status, body } = await get('/jobs/7');
    expect(status).toBe(200);
    expect(body.nodes).toEqual([
      { name: 'node001', known: true, rails: ['node001/mlx5_0', 'node001/mlx5_1'] },
      { name: 'node003', known: true, rails: ['node003/mlx5_0', 'node003/mlx5_1'] },
      { name: 'login01', known: false },
    ]);
    const ids: string[] = body.links.map((l: { id: string }) => l.id);
    expect(ids).toEqual(
      expect.arrayContaining([
        'node001/mlx5_0/1->leaf01/1',
        'leaf01/3->node003/mlx5_0/1',
        'node001/mlx5_1/1->leaf02/1',
        'node003/mlx5_1/1->leaf02/3',
      ]),
    );
    // Each rail pair is a flow of its own: two hosts, both ways, two rails.
    expect(body.contention.flowCount).toBe(4);
  });

  it('POST /analysis plans on host names: each host is every rail', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/v1/analysis',
      payload: { pattern: 'shift:1', nodes: 'node[001,003]' },
    });
    expect(res.statusCode).toBe(200);
    expect([...res.json().hosts].sort()).toEqual([
      'node001/mlx5_0',
      'node001/mlx5_1',
      'node003/mlx5_0',
      'node003/mlx5_1',
    ]);
    const unknown = await app.inject({
      method: 'POST',
      url: '/api/v1/analysis',
      payload: { pattern: 'shift:1', nodes: ['node001', 'node404'] },
    });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().message).toBe('nodes: unknown node "node404"');
  });
});
