import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ibsimNetFile, railSubnet } from '@fabscope/lab';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from './run-cli.ts';

// A site-named subnet (rdma-ndd's `node001 mlx5_0`, two rails a host) as a topology file.
describe('fabscope route by host name', () => {
  const dir = mkdtempSync(join(tmpdir(), 'fabscope-route-names-'));
  const net = join(dir, 'rails.net');
  writeFileSync(net, ibsimNetFile(railSubnet({ hosts: 4 }), { descriptions: true }));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const route = (from: string, to: string, ...more: string[]) =>
    runCli(['route', '--topology', net, '--routing', 'minhop', '--from', from, '--to', to, ...more]);

  it('routes a host to a host on the first rail pair and says which, in JSON and text', async () => {
    const json = await route('node001', 'node003', '--json');
    expect(json.code, json.stderr).toBe(0);
    const report = JSON.parse(json.stdout);
    expect(report).toMatchObject({
      from: 'node001/mlx5_0',
      to: 'node003/mlx5_0',
      rail: {
        from: 'node001',
        to: 'node003',
        rails: ['node001/mlx5_0->node003/mlx5_0', 'node001/mlx5_1->node003/mlx5_1'],
      },
    });
    const text = await route('node001', 'node003/mlx5_1');
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/^Rail node001\/mlx5_1->node003\/mlx5_1 \(of 2: /);
    expect(text.stdout).toMatch(/\nRoutes between ports:\n/);
  });

  it('refuses an unknown host, naming it', async () => {
    const { code, stderr } = await route('node404', 'node003');
    expect(code).not.toBe(0);
    expect(stderr).toMatch(/unknown node "node404"/);
  });
});
