import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ibsimNetFile, railSubnet } from '@fabscope/lab';
import { afterAll, describe, expect, it } from 'vitest';
import { fabricFromConfig } from '../src/commands/topology.ts';
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

  it('FABSCOPE_TOPOLOGY with FABSCOPE_NODE_NAME_MAP: the map names what it lists', () => {
    const report = join(dir, 'rails.p');
    writeFileSync(
      report,
      [
        "CA     5  1 0x0002c90300000011 4x EDR - SW     2  1 0x0002c90300000100 ( 'node001 mlx5_0' - 'MF0;leaf01:MQM8790/U1' )",
        "SW     2  1 0x0002c90300000100 4x EDR - CA     5  1 0x0002c90300000011 ( 'MF0;leaf01:MQM8790/U1' - 'node001 mlx5_0' )",
        '',
      ].join('\n'),
    );
    const names = (nodeNames?: Map<string, string>) =>
      fabricFromConfig({ scenario: 'ar-demo', topologyPath: report, routing: 'minhop', nodeNames })
        .fabric.nodes.map((n) => n.name)
        .sort();
    expect(names()).toEqual(['leaf01', 'node001']);
    expect(names(new Map([['0x0002c90300000100', 'edge-a']]))).toEqual(['edge-a', 'node001']);
  });

  it('refuses an unknown host, naming it', async () => {
    const { code, stderr } = await route('node404', 'node003');
    expect(code).not.toBe(0);
    expect(stderr).toMatch(/unknown node "node404"/);
  });
});
