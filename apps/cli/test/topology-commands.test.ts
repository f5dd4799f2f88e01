import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from './run-cli.ts';

const run = (args: string[]) => runCli(args);

describe('fabscope topology, route and analyze', () => {
  it('topology generate --json prints the counts and the routing time', async () => {
    const { code, stdout } = await run(['topology', 'generate', '--scenario', 'fat-tree-1152', '--json']);
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toMatchObject({
      hosts: 1152,
      switches: 72,
      routers: 0,
      adapters: 1152,
      links: 2304,
      isls: 1152,
    });
    expect(JSON.parse(stdout).routingMs).toBeGreaterThan(0);
  });

  it('topology parse exits non-zero naming the line of a malformed file', async () => {
    const file = join(tmpdir(), `fabscope-bad-${process.pid}.topo`);
    writeFileSync(file, 'Switch 8 "s1"\n[1] "h1"[1]\nnot a record\n');
    const { code, stderr } = await run(['topology', 'parse', file, '--json']);
    expect(code).toBe(1);
    expect(stderr.startsWith(`fabscope: ${file} (ibnetdiscover): line 3: expected a node header`)).toBe(true);
  });

  it('route prints the opareport -o route layout with a latency estimate', async () => {
    const { code, stdout } = await run([
      'route',
      '--scenario',
      'single-switch-32',
      '--from',
      'node01',
      '--to',
      'node02',
    ]);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^Routes between ports:\n/);
    expect(stdout).toMatch(/\n2 Links Traversed\n/);
    expect(stdout).toMatch(/Latency estimate: 930 ns/);
  });

  it('route through an IP router: no GUID or LID on its Ethernet hops, in text or JSON', async () => {
    const args = ['route', '--scenario', 'opa-ethernet-router', '--from', 'opa-node', '--to', 'eth-node'];
    const text = await run(args);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/\nSLID: 0x0001 to DLID: - +SL: 0\n/);
    for (const line of text.stdout.split('\n').filter((l) => / (RT|NIC) | eth-switch/.test(l)))
      expect(line, line).not.toMatch(/0x[0-9a-f]{16}/);
    const json = await run([...args, '--json']);
    const report = JSON.parse(json.stdout) as {
      slid?: number;
      dlid?: number;
      hops: { node: string; guid?: string }[];
    };
    expect(report.hops.map((h) => [h.node, h.guid !== undefined])).toEqual([
      ['opa-node', true],
      ['opa-edge', true],
      ['router', false],
      ['eth-switch', false],
      ['eth-node', false],
    ]);
    expect(report).toMatchObject({ slid: 1 });
    expect(report).not.toHaveProperty('dlid');
  });

  it('analyze --json finds the seed pairs sharing an ISL on ar-demo', async () => {
    const { code, stdout } = await run([
      'analyze',
      '--scenario',
      'ar-demo',
      '--pattern',
      'pairs:nodeA-nodeC,nodeB-nodeD',
      '--json',
    ]);
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toMatchObject({ maxLinkLoad: 2, engine: 'fattree' });
  });
});
