import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ibsimNetFile, type Lab, railSubnet, startLab } from '@fabscope/lab';
import { parsePortsReport } from '@fabscope/topology';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from './eventually.ts';
import { runCli } from './run-cli.ts';
import { type ServeOnLab, startServeOnLab } from './serve-on-lab.ts';

const run = promisify(execFile);

// Issue 40: a subnet named as a real site names it — adapters described `node001 mlx5_0` by rdma-ndd,
// two per host on two rails, switches `MF0;leaf01:MQM8790/U1` — asked by host name, as a site asks.
describe('fabscope serve on a site-named subnet of two rails', () => {
  let lab: Lab;
  let serve: ServeOnLab;
  // biome-ignore lint/suspicious/noExplicitAny: JSON answers are checked field by field below
  const get = async (path: string): Promise<any> => (await fetch(`${serve.url}/api/v1${path}`)).json();

  beforeAll(async () => {
    lab = await startLab({
      net: ibsimNetFile(railSubnet({ hosts: 6, rails: 2, spines: 2 }), { descriptions: true }),
      routing: 'minhop',
      sockName: `names-${process.pid}-${Math.random().toString(36).slice(2, 8)}`,
    });
    // The site's map names one spine by its GUID, as ibnetdiscover --node-name-map would.
    const report = (await run('ibnetdiscover', ['-p'], { env: { ...process.env, ...lab.env }, cwd: lab.cwd }))
      .stdout;
    const spine = parsePortsReport(report).nodeByName.get('spine02');
    const mapPath = join(lab.dir, 'node-name-map');
    writeFileSync(mapPath, `# site names\n${spine?.guid} "core-b"\n`);
    const jobsPath = join(lab.dir, 'jobs.json');
    writeFileSync(
      jobsPath,
      JSON.stringify({ jobs: [{ id: '1001', nodes: 'node[001-002,005-006]', state: 'RUNNING' }] }),
    );
    serve = await startServeOnLab(
      lab,
      {
        FABSCOPE_JOBS: `file:${jobsPath}`,
        FABSCOPE_NODE_NAME_MAP: mapPath,
        FABSCOPE_DISCOVER_INTERVAL_MS: '2000',
      },
      40_000,
    );
  }, 90_000);
  afterAll(async () => {
    await serve?.stop();
    await lab?.stop();
  });

  it('names hosts’ adapters host/device and switches by hostname; the map overrides', async () => {
    const names: string[] = (await get('/topology')).nodes.map((n: { name: string }) => n.name);
    expect(names).toEqual(expect.arrayContaining(['node001/mlx5_0', 'node006/mlx5_1', 'leaf01', 'spine01']));
    expect(names).toContain('core-b');
    expect(names).not.toContain('spine02');
    expect(names.some((n) => n.startsWith('MF0;'))).toBe(false);
  });

  it('fabscope top shows links by host and switch names, never the raw descriptions', async () => {
    const screen = await eventually(async () => {
      const top = await runCli(['top', '--once', '--url', serve.url], {
        env: { COLUMNS: '160', LINES: '40' },
      });
      expect(top.code, top.stderr).toBe(0);
      expect(top.stdout, top.stdout).toMatch(/node0\d\d\/mlx5_[01]\/1 → leaf0[12]\/\d/);
      return top.stdout;
    }, 20_000);
    expect(screen).not.toContain('MF0;');
  }, 30_000);

  it('/jobs/{id}: every host known, on both its rails, with its links and contention', async () => {
    const job = await eventually(async () => {
      const j = await get('/jobs/1001');
      expect(j.nodes).toHaveLength(4);
      return j;
    }, 20_000);
    for (const node of job.nodes) {
      expect(node.known).toBe(true);
      expect(node.rails).toEqual([`${node.name}/mlx5_0`, `${node.name}/mlx5_1`]);
    }
    const ids: string[] = job.links.map((l: { id: string }) => l.id);
    expect(ids).toContain('node001/mlx5_0/1->leaf01/1');
    expect(ids).toContain('node001/mlx5_1/1->leaf02/1');
    expect(job.contention).not.toBeNull();
  });

  it('/route between two hosts answers the subnet manager’s path and says the rail', async () => {
    const route = await eventually(async () => {
      const r = await get('/route?from=node001&to=node005');
      expect(r.tables?.source).toBe('sm');
      return r;
    }, 40_000);
    expect(route.from).toBe('node001/mlx5_0');
    expect(route.to).toBe('node005/mlx5_0');
    expect(route.rail).toEqual({
      from: 'node001',
      to: 'node005',
      rails: ['node001/mlx5_0->node005/mlx5_0', 'node001/mlx5_1->node005/mlx5_1'],
    });
    expect(route.hops.map((h: { node: string }) => h.node)).toEqual([
      'node001/mlx5_0',
      'leaf01',
      'node005/mlx5_0',
    ]);
    // One rail by name, and an unknown host is a 404 that names it.
    expect((await get('/route?from=node001/mlx5_1&to=node005')).hops[1].node).toBe('leaf02');
    const unknown = await fetch(`${serve.url}/api/v1/route?from=node404&to=node005`);
    expect(unknown.status).toBe(404);
    expect(((await unknown.json()) as { message: string }).message).toMatch(/node404/);
  }, 60_000);

  it('rediscovery names the subnet the same way: no new topology version, the map still applied', async () => {
    const started = Date.now();
    const health = await eventually(async () => {
      const h = await get('/health');
      expect(Date.parse(h.topology?.discoveredAt ?? '') > started, JSON.stringify(h.topology)).toBe(true);
      return h;
    }, 20_000);
    expect(health.topology.changed).toBe(false);
    const topology = await get('/topology');
    expect(topology.version).toBeUndefined();
    expect(topology.nodes.map((n: { name: string }) => n.name)).toContain('core-b');
  }, 30_000);
});
