import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createFabricRegistry, mapBounded, omnipathSource, parseOpaTargets } from '../../../src/index.ts';
import { described, FIXTURES, find, samples, value } from '../../helpers.ts';

// opapmaquery (Omni-Path FastFabric) is not packaged for this machine and talks to hardware we do
// not own: a small fake executable on PATH prints recorded-format output and logs its arguments.
// The InfiniBand source is tested against the real tools on the ibsim lab (infiniband-lab.test.ts).
let bin = '';
let savedPath = '';
const log = () => readFileSync(join(bin, 'calls.log'), 'utf8').trim().split('\n');

function fake(name: string, body: string): void {
  const file = join(bin, name);
  writeFileSync(file, `#!/bin/sh\necho "${name} $*" >> "${bin}/calls.log"\n${body}\n`);
  chmodSync(file, 0o755);
}

beforeAll(() => {
  bin = mkdtempSync(join(tmpdir(), 'fabscope-fake-tools-'));
  savedPath = process.env.PATH ?? '';
  process.env.PATH = `${bin}:${savedPath}`;
  fake(
    'opapmaquery',
    [
      // opapmaquery -o getportstatus -l <lid> -m <port>
      'case "$4" in',
      `  6) cat "${FIXTURES}opapmaquery/edge1-port1.out" ;;`,
      `  7) cat "${FIXTURES}opapmaquery/core-port24-vl0.out" ;;`,
      '  *) echo "opapmaquery: no response from lid $4" >&2; exit 3 ;;',
      'esac',
    ].join('\n'),
  );
});
afterAll(() => {
  process.env.PATH = savedPath;
  rmSync(bin, { recursive: true, force: true });
});

describe('omnipath source: opapmaquery -o getportstatus per port', () => {
  const targets = parseOpaTargets(
    [
      '# lid,port,node_guid,node_name,node_type,rate_gbps,remote_guid,remote_port,remote_name',
      '6,1,0x0011750101000000,edge1,switch,100,0x0011750100000000,1,nodeA',
      '7,24,0x0011750101000003,core2,switch,100,0x0011750101000000,4,edge1',
      '9,3,0x0011750101000004,core3,switch,100,,,',
    ].join('\n'),
  );

  it('exposes flits × 8 as bytes with both cable ends, and counts failed ports per target', async () => {
    writeFileSync(join(bin, 'calls.log'), '');
    const { scrape } = createFabricRegistry({ source: omnipathSource({ fabric: 'opa', targets }) });
    const list = described(samples(await scrape()));
    expect(log()).toContain('opapmaquery -o getportstatus -l 6 -m 1');
    for (const call of log()) expect(call).not.toMatch(/clear/);
    const edge = find(list, 'fabscope_port_data_transmitted_bytes_total', { node_name: 'edge1' });
    expect(edge[0]?.value).toBe(1500000000123 * 8);
    expect(edge[0]?.labels).toMatchObject({ remote_node_name: 'nodeA', remote_port: '1' });
    expect(value(list, 'fabscope_port_transmit_wait_total', { node_name: 'edge1' })).toBe(4200);
    expect(find(list, 'fabscope_port_data_transmitted_bytes_total', { node_name: 'core3' })).toEqual([]);
    expect(value(list, 'fabscope_fabric_target_errors_total', { target: '0x0011750101000004/3' })).toBe(1);
  });

  it('rejects a malformed targets line with its number', () => {
    expect(() => parseOpaTargets('6,1,zz,edge1,switch,100')).toThrow(/targets line 1/);
  });
});

describe('bounded concurrency', () => {
  it('never runs more than the limit at once and keeps the order of results', async () => {
    let running = 0;
    let peak = 0;
    vi.useFakeTimers();
    try {
      const done = mapBounded([5, 1, 4, 2, 3, 0], 2, async (ms) => {
        running++;
        peak = Math.max(peak, running);
        await new Promise((resolve) => setTimeout(resolve, ms * 3));
        running--;
        return ms * 10;
      });
      await vi.runAllTimersAsync();
      expect(peak).toBe(2);
      expect(await done).toEqual([50, 10, 40, 20, 30, 0]);
    } finally {
      vi.useRealTimers();
    }
  });
});
