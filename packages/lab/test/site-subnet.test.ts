import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { parsePortsReport } from '@fabscope/topology';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ibsimNetFile, type Lab, railSubnet, startLab } from '../src/index.ts';

const run = promisify(execFile);

describe('a subnet named as a real site names it', () => {
  it('writes rdma-ndd’s and MLNX-OS’s NodeDescriptions after the ibsim ids', () => {
    const net = ibsimNetFile(railSubnet({ hosts: 2 }), { descriptions: true });
    expect(net).toMatch(/^Hca\t1 "node001\/mlx5_0" # "node001 mlx5_0"\n\[1\]\t"leaf01"\[1\]\tw=2 s=4 e=2$/m);
    expect(net).toMatch(/^Hca\t1 "node002\/mlx5_1" # "node002 mlx5_1"\n\[1\]\t"leaf02"\[2\]/m);
    expect(net).toMatch(/^Switch\t40 "leaf01" # "MF0;leaf01:MQM8790\/U1"$/m);
    expect(() => railSubnet({ hosts: 39, spines: 2 })).toThrow(/do not fit leaves of 40 ports/);
    // Without the option, ibsim's own: the id.
    expect(ibsimNetFile(railSubnet({ hosts: 2 }))).not.toContain('# "');
  });
});

describe('the site-named subnet on ibsim + OpenSM, read back by fabscope', () => {
  let lab: Lab;
  const design = railSubnet({ hosts: 4, rails: 2, spines: 2 });
  beforeAll(async () => {
    lab = await startLab({
      net: ibsimNetFile(design, { descriptions: true }),
      routing: 'minhop',
      sockName: `site-${process.pid}-${Math.random().toString(36).slice(2, 8)}`,
    });
  }, 60_000);
  afterAll(async () => {
    await lab?.stop();
  });
  const tool = async (cmd: string, ...args: string[]) =>
    (await run(cmd, args, { env: { ...process.env, ...lab.env }, cwd: lab.cwd })).stdout;

  it('ibnetdiscover -p shows the descriptions; fabscope names hosts and switches as the design does', async () => {
    const report = await tool('ibnetdiscover', '-p');
    expect(report).toContain("'node001 mlx5_0'");
    expect(report).toContain("'MF0;leaf01:MQM8790/U1'");
    const fabric = parsePortsReport(report, 'lab');
    expect(fabric.nodes.map((n) => n.name).sort()).toEqual(design.nodes.map((n) => n.name).sort());
    expect(fabric.links.map((l) => l.id.split('--').sort().join('--')).sort()).toEqual(
      design.links.map((l) => l.id.split('--').sort().join('--')).sort(),
    );
    expect(fabric.nodeByName.get('node003/mlx5_1')?.description).toBe('node003 mlx5_1');
  });

  it('a node-name-map renames what it lists, by switch GUID or adapter port GUID', async () => {
    const report = await tool('ibnetdiscover', '-p');
    const plain = parsePortsReport(report, 'lab');
    const leaf = plain.nodeByName.get('leaf02');
    const rail = plain.nodeByName.get('node004/mlx5_0');
    const fabric = parsePortsReport(report, 'lab', {
      nodeNames: new Map([
        [leaf?.guid as string, 'rail1-leaf'],
        [rail?.guid as string, 'gpu4-rail0'],
      ]),
    });
    expect(fabric.nodeByName.get('rail1-leaf')?.description).toBe('MF0;leaf02:MQM8790/U1');
    expect(fabric.nodeByName.get('gpu4-rail0')?.description).toBe('node004 mlx5_0');
    expect(fabric.nodeByName.has('node004/mlx5_1')).toBe(true);
  });
});
