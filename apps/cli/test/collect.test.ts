import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { exactJson, parse } from '../src/commands/parse.ts';

const BIN = fileURLToPath(new URL('../bin/fabscope.js', import.meta.url));
const FIXTURES = fileURLToPath(new URL('../../../packages/collectors/test/fixtures/', import.meta.url));
const run = (args: string[]) => promisify(execFile)(process.execPath, [BIN, ...args], { timeout: 30_000 });

const sample = (text: string, name: string, labels: string) => {
  const line = text.split('\n').find((l) => l.startsWith(`${name}{${labels}}`));
  return line === undefined ? undefined : Number(line.split(' ').pop());
};

describe('fabscope collect host --once', () => {
  // The three kinds of real trees (Omni-Path HFI, QDR ConnectX-3, EDR ConnectX-4), in our own fixtures.
  it.each([
    ['sysfs-opa', 'hfi1_0', '1', 12.5e9],
    ['sysfs-qdr', 'mlx4_0', '1', 5e9],
    ['sysfs-qdr', 'mlx4_0', '2', 1.25e9],
    ['sysfs-edr', 'mlx5_0', '1', 3.125e9],
  ])('%s %s port %s: data = 4 × port_xmit_data, rate in bytes/s', async (tree, device, port, rate) => {
    const { stdout } = await run([
      'collect',
      'host',
      '--sysfs',
      `${FIXTURES}${tree}`,
      '--procfs',
      `${FIXTURES}procfs-mixed`,
      '--once',
    ]);
    const dir = `${FIXTURES}${tree}/class/infiniband/${device}/ports/${port}/counters`;
    const labels = `device="${device}",port="${port}"`;
    const words = BigInt(readFileSync(`${dir}/port_xmit_data`, 'utf8').trim());
    expect(sample(stdout, 'node_infiniband_port_data_transmitted_bytes_total', labels)).toBe(
      Number(words * 4n),
    );
    expect(sample(stdout, 'node_infiniband_rate_bytes_per_second', labels)).toBe(rate);
    expect(stdout).toContain('# TYPE node_infiniband_port_data_transmitted_bytes_total counter');
  });

  it('stops with a message on a bad option value', async () => {
    await expect(run(['collect', 'host', '--include', '(', '--once'])).rejects.toMatchObject({
      stderr: expect.stringContaining('--include must be a regular expression'),
    });
  });
});

describe('fabscope parse', () => {
  it('parse perfquery FILE prints JSON with PortXmitData × 4 bytes, exact', async () => {
    const { stdout } = await run(['parse', 'perfquery', `${FIXTURES}perfquery/0x98039b0300a1b3d4.out`]);
    const doc = JSON.parse(stdout) as { dataUnit: string; ports: { port: number; transmitBytes: number }[] };
    expect(doc.dataUnit).toBe('bytes');
    expect(doc.ports.map((p) => p.port)).toEqual([7, 1]);
    expect(doc.ports[1]?.transmitBytes).toBe(4000);
    // 2^61 words × 4 = 2^63 bytes, printed exactly (not rounded through a double)
    expect(stdout).toContain('"transmitBytes": 9223372036854775808');
  });

  it('parse opapmaquery FILE prints flits × 8 as bytes', async () => {
    let out = '';
    await parse(['opapmaquery', `${FIXTURES}opapmaquery/edge1-port1.out`], { stdout: (t) => (out += t) });
    const doc = JSON.parse(out) as { ports: { transmitBytes: number; counters: Record<string, number> }[] };
    expect(doc.ports[0]?.transmitBytes).toBe(12000000000984);
    expect(doc.ports[0]?.counters['Xmit Data']).toBe(1500000000123);
  });

  it('writes BigInt values as exact JSON integers', () => {
    expect(exactJson({ a: 2n ** 70n })).toBe('{\n  "a": 1180591620717411303424\n}');
  });
});
