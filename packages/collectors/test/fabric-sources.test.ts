import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createFabricRegistry,
  infinibandSource,
  mapBounded,
  omnipathSource,
  parseOpaTargets,
} from '../src/index.ts';
import { described, FIXTURES, find, samples, value } from './helpers.ts';

// perfquery, ibnetdiscover and opapmaquery are not installed here and talk to hardware we do not
// own: small fake executables on PATH print recorded-format output and log their arguments.
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
  fake('ibnetdiscover', `cat "${FIXTURES}ibnetdiscover/fabric-p.out"`);
  fake(
    'perfquery',
    [
      // perfquery -x -l -G <guid> <ports>
      'guid="$4"',
      'case "$guid" in',
      '  0x98039b0300a1b3d4) echo "ibwarn: mad timeout" >&2; exit 1 ;;',
      '  0x98039b0300a1b000) sleep 5 ;;',
      'esac',
      `cat "${FIXTURES}perfquery/$guid.out"`,
    ].join('\n'),
  );
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

describe('infiniband source: ibnetdiscover then perfquery -x per switch', () => {
  it('exposes every cabled switch port with both cable ends; failed and timed-out switches are absent and counted', async () => {
    writeFileSync(join(bin, 'calls.log'), '');
    const source = infinibandSource({ fabric: 'lab', timeoutMs: 500, concurrency: 2 });
    const { scrape } = createFabricRegistry({ source });
    const list = samples(await scrape());
    const withNames = described(list);

    const calls = log();
    expect(calls[0]).toBe('ibnetdiscover -p');
    expect(calls).toContain('perfquery -x -l -G 0x98039b0300a1b2c0 3,4,17,33,34');
    for (const call of calls) expect(call).not.toMatch(/ -[rR]\b|--reset/); // never reset counters

    const leaf = { node_guid: '0x98039b0300a1b2c0' };
    expect(value(list, 'fabscope_port_data_transmitted_bytes_total', { ...leaf, port: '3' })).toBe(
      40213370123457 * 4,
    );
    // The counters carry the port's key and both types; the names and far end are its info series.
    expect(
      find(list, 'fabscope_port_data_transmitted_bytes_total', { ...leaf, port: '17' })[0]?.labels,
    ).toEqual({
      fabric: 'lab',
      node_guid: '0x98039b0300a1b2c0',
      node_type: 'switch',
      port: '17',
      remote_node_type: 'switch',
    });
    expect(find(list, 'fabscope_port_info', { ...leaf, port: '17' })[0]).toEqual({
      name: 'fabscope_port_info',
      value: 1,
      labels: {
        fabric: 'lab',
        node_guid: '0x98039b0300a1b2c0',
        node_name: 'leaf-a01',
        node_type: 'switch',
        port: '17',
        remote_node_guid: '0x98039b0300a1b000',
        remote_node_name: 'spine-01',
        remote_node_type: 'switch',
        remote_port: '1',
      },
    });
    expect(find(withNames, 'fabscope_port_link_up', { node_name: 'leaf-a01', port: '17' })).toHaveLength(1);
    expect(value(list, 'fabscope_port_rate_bytes_per_second', { ...leaf, port: '4' })).toBe(12.5e9);
    expect(find(list, 'fabscope_port_data_transmitted_bytes_total', { ...leaf, port: '35' })).toEqual([]); // uncabled

    // leaf-a02 failed, spine-01 timed out: their ports are absent, not zero
    expect(
      find(list, 'fabscope_port_data_transmitted_bytes_total', { node_guid: '0x98039b0300a1b3d4' }),
    ).toEqual([]);
    expect(
      find(list, 'fabscope_port_data_transmitted_bytes_total', { node_guid: '0x98039b0300a1b000' }),
    ).toEqual([]);
    const target = (t: string) => ({ target: t });
    expect(value(list, 'fabscope_fabric_target_up', target('0x98039b0300a1b2c0'))).toBe(1);
    expect(value(list, 'fabscope_fabric_target_errors_total', target('0x98039b0300a1b3d4'))).toBe(1);
    expect(value(list, 'fabscope_fabric_target_timeouts_total', target('0x98039b0300a1b000'))).toBe(1);
    expect(value(list, 'fabscope_fabric_target_timeouts_total', target('0x98039b0300a1b2c0'))).toBe(0);
    const slow = value(
      list,
      'fabscope_fabric_target_collect_duration_seconds',
      target('0x98039b0300a1b000'),
    ) as number;
    expect(slow).toBeGreaterThanOrEqual(0.45);
    expect(slow).toBeLessThan(3);
    expect(value(list, 'fabscope_fabric_source_up')).toBe(1);
  }, 20_000);

  it('drops all port series and counts a source error when ibnetdiscover fails', async () => {
    const source = infinibandSource({ ibnetdiscover: join(bin, 'does-not-exist') });
    const list = samples(await createFabricRegistry({ source }).scrape());
    expect(find(list, 'fabscope_port_data_transmitted_bytes_total')).toEqual([]);
    expect(value(list, 'fabscope_fabric_source_up')).toBe(0);
    expect(value(list, 'fabscope_fabric_source_errors_total')).toBe(1);
  });
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
    const results = await mapBounded([5, 1, 4, 2, 3, 0], 2, async (ms) => {
      running++;
      peak = Math.max(peak, running);
      await new Promise((resolve) => setTimeout(resolve, ms * 3));
      running--;
      return ms * 10;
    });
    expect(peak).toBe(2);
    expect(results).toEqual([50, 10, 40, 20, 30, 0]);
  });
});
