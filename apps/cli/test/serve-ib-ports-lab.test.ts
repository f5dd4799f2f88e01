import { join } from 'node:path';
import { type Lab, planeNetFile, startLab } from '@fabscope/lab';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from './eventually.ts';
import { runCli } from './run-cli.ts';
import { type ServeOnLab, startServeOnLab } from './serve-on-lab.ts';

// biome-ignore lint/suspicious/noExplicitAny: JSON answers are checked field by field below
type Json = any;

// FABSCOPE_IB_PORTS as a site sets it, on the lab: umad2sim shows the subnet as the local adapter `ibsim0`, so
// naming its port runs every tool through it (`-C ibsim0 -P 1`) and the MAD reader opens it by name.
describe('FABSCOPE_IB_PORTS naming the local port, on the lab', () => {
  let lab: Lab;
  let serve: ServeOnLab;
  const get = async (path: string): Promise<Json> => (await fetch(`${serve.url}/api/v1${path}`)).json();

  beforeAll(async () => {
    lab = await startLab({
      net: planeNetFile({ plane: 0, hosts: 4 }),
      routing: 'minhop',
      sockName: `ports-${process.pid}-${Math.random().toString(36).slice(2, 8)}`,
    });
    serve = await startServeOnLab(lab, { FABSCOPE_IB_PORTS: 'ibsim0:1' }, 40_000);
  }, 60_000);
  afterAll(async () => {
    await serve?.stop();
    await lab?.stop();
  });

  it('discovers, sweeps, routes and asks the SM through that port', async () => {
    const topology = await get('/topology');
    expect(topology.nodes).toHaveLength(4 + 3);
    expect(topology.nodes.find((n: Json) => n.name === 'node001').subnet).toBeUndefined();
    await eventually(async () => {
      const summary = await get('/summary');
      expect(summary.portsWithoutData).toBe(0);
    }, 20_000);
    const route = await eventually(async () => {
      const r = await get('/route?from=node001&to=node004');
      expect(r.tables?.source).toBe('sm');
      return r;
    }, 40_000);
    expect(route.tables.from).toBe('dump_fts');
    expect(route.hops.map((h: Json) => h.node)).toEqual([
      'node001',
      'plane1-leaf01',
      'plane1-spine01',
      'plane1-leaf02',
      'node004',
    ]);
    expect((await get('/health')).subnetManager.detail).toMatch(/^ibsim0:1: sminfo: sm lid/);
  }, 60_000);

  it('refuses to start on a port the host does not have, or an entry that is no port, naming it', async () => {
    const env = {
      ...lab.env,
      FABSCOPE_FABRIC: 'infiniband',
      FABSCOPE_DATA_DIR: join(lab.cwd, 'refused'),
      HOST: '127.0.0.1',
      PORT: '0',
    };
    const absent = await runCli(['serve'], { env: { ...env, FABSCOPE_IB_PORTS: 'ibsim0:1,mlx5_9:1' } });
    expect(absent.code).not.toBe(0);
    expect(absent.stderr).toMatch(/subnet mlx5_9:1: ibnetdiscover -p: .*mlx5_9:1/);
    const bad = await runCli(['serve'], { env: { ...env, FABSCOPE_IB_PORTS: 'ibsim0:1,mlx5_1' } });
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain('FABSCOPE_IB_PORTS must list local ports like "mlx5_0:1,mlx5_1:1"');
    expect(bad.stderr).toContain('got "mlx5_1"');
  }, 40_000);
});
