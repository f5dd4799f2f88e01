import { configFromEnv } from '@fabscope/api';
import { type Lab, planeNetFile, startLab } from '@fabscope/lab';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveInfiniband } from '../src/index.ts';
import { eventually } from './eventually.ts';

// biome-ignore lint/suspicious/noExplicitAny: JSON answers are checked field by field below
type Json = any;

/** Bytes per second written into node001's port on each plane: different, so a mix-up shows. */
const RATES = [1e9, 2e9] as const;

// Issue 40: two planes, each a subnet of its own (its own ibsim and OpenSM, its own IBSIM_SOCKNAME), every host
// on both by an adapter each (`node001 mlx5_0`, `node001 mlx5_1`), watched by one `fabscope serve`.
describe('one fabscope serve watching two InfiniBand subnets', () => {
  const labs: Lab[] = [];
  let running: Awaited<ReturnType<typeof serveInfiniband>> | undefined;
  let pump: NodeJS.Timeout | undefined;
  const get = async (path: string): Promise<Json> => {
    const response = await fetch(`${running?.api.url}/api/v1${path}`);
    const body = await response.json();
    if (!response.ok) throw new Error(`${path}: ${response.status} ${JSON.stringify(body)}`);
    return body;
  };

  beforeAll(async () => {
    const tag = `${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
    labs.push(
      ...(await Promise.all(
        [0, 1].map((plane) =>
          startLab({
            net: planeNetFile({ plane }),
            routing: 'minhop',
            sockName: `planes-${plane}-${tag}`,
          }),
        ),
      )),
    );
    const config = {
      ...configFromEnv({ FABSCOPE_FABRIC: 'infiniband', FABSCOPE_DISCOVER_INTERVAL_MS: '2000' }),
      host: '127.0.0.1',
      port: 0,
    };
    running = await serveInfiniband(config, {
      subnets: labs.map((lab, i) => ({
        name: `plane${i + 1}`,
        env: lab.env,
        cwd: lab.cwd,
        lftsPath: lab.lftsDumpPath,
      })),
    });
    // node001's port counts up at its plane's rate (PortXmitData counts 4-octet words).
    const started = Date.now();
    let writing = false;
    pump = setInterval(() => {
      if (writing) return;
      writing = true;
      const seconds = (Date.now() - started) / 1000;
      Promise.all(
        labs.map((lab, i) =>
          lab.performanceSet(
            'node001',
            1,
            'PortCountersExtended.PortXmitData',
            BigInt(Math.round(((RATES[i] as number) * seconds) / 4)),
          ),
        ),
      )
        .catch(() => undefined)
        .finally(() => {
          writing = false;
        });
    }, 50);
  }, 60_000);
  afterAll(async () => {
    clearInterval(pump);
    // The server's tools are the labs' clients: they stop before ibsim does.
    await running?.stop();
    await Promise.all(labs.map((lab) => lab.stop()));
  });

  it('draws both subnets, a network each, every host one node per rail', async () => {
    const topology = await get('/topology');
    const names: string[] = topology.nodes.map((n: Json) => n.name);
    expect(names).toEqual(
      expect.arrayContaining(['node001/mlx5_0', 'node001/mlx5_1', 'plane1-leaf01', 'plane2-spine01']),
    );
    expect(topology.nodes).toHaveLength(2 * (6 + 3));
    const subnetOf = new Map(topology.nodes.map((n: Json) => [n.name, n.subnet]));
    expect(subnetOf.get('node006/mlx5_0')).toBe('plane1');
    expect(subnetOf.get('node006/mlx5_1')).toBe('plane2');
    // No cable joins the planes: each is a network of its own.
    for (const link of topology.links) expect(subnetOf.get(link.a.node)).toBe(subnetOf.get(link.b.node));
    expect(topology.links).toHaveLength(2 * (6 + 2));
  });

  it('measures each subnet from its own collector', async () => {
    await eventually(async () => {
      for (const [i, rate] of RATES.entries()) {
        const port = await get(`/port?node=${encodeURIComponent(`node001/mlx5_${i}`)}&port=1`);
        const measured = port.ports[0].out?.bytesPerSecond;
        expect(measured, `plane ${i + 1}`).toBeGreaterThan(rate * 0.8);
        expect(measured, `plane ${i + 1}`).toBeLessThan(rate * 1.2);
      }
    }, 30_000);
  }, 40_000);

  it('routes in each subnet by its own subnet manager’s tables, and says the rail', async () => {
    const route = await eventually(async () => {
      const r = await get('/route?from=node001&to=node005');
      expect(r.tables.source).toBe('sm');
      expect(r.tables.missing ?? []).toEqual([]);
      return r;
    }, 20_000);
    expect(route.hops.map((h: Json) => h.node)).toEqual([
      'node001/mlx5_0',
      'plane1-leaf01',
      'plane1-spine01',
      'plane1-leaf02',
      'node005/mlx5_0',
    ]);
    expect(route.rail.rails).toEqual(['node001/mlx5_0->node005/mlx5_0', 'node001/mlx5_1->node005/mlx5_1']);
    const second = await get(`/route?from=${encodeURIComponent('node001/mlx5_1')}&to=node005`);
    expect(second.hops.map((h: Json) => h.node)).toEqual([
      'node001/mlx5_1',
      'plane2-leaf01',
      'plane2-spine01',
      'plane2-leaf02',
      'node005/mlx5_1',
    ]);
  }, 30_000);

  it('asks each subnet’s SM, and rediscovers both subnets as the same fabric', async () => {
    const started = Date.now();
    const health = await eventually(async () => {
      const h = await get('/health');
      expect(h.subnetManager?.state, JSON.stringify(h.subnetManager)).toBe('present');
      expect(Date.parse(h.topology?.discoveredAt ?? '') > started, JSON.stringify(h.topology)).toBe(true);
      return h;
    }, 20_000);
    expect(health.subnetManager.detail).toMatch(/^plane1: .*sm lid.*; plane2: .*sm lid/);
    expect(health.topology.changed).toBe(false);
    expect((await get('/topology')).version).toBeUndefined();
  }, 30_000);

  it('lists a host’s rails on its page: device, subnet, GUID, LID and link', async () => {
    const page = await get('/port?node=node001');
    expect(page.rails.map((r: Json) => [r.name, r.device, r.subnet])).toEqual([
      ['node001/mlx5_0', 'mlx5_0', 'plane1'],
      ['node001/mlx5_1', 'mlx5_1', 'plane2'],
    ]);
    for (const [i, rail] of page.rails.entries()) {
      expect(rail.lid).toBeGreaterThan(0);
      expect(rail.guid).toMatch(/^0x[0-9a-f]{16}$/);
      expect(rail.links).toEqual([
        expect.objectContaining({
          port: 1,
          neighbour: { node: `plane${i + 1}-leaf01`, port: 1 },
          linkUp: true,
        }),
      ]);
    }
  });
});
