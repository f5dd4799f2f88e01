import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import {
  createHostCollector,
  parseCounter,
  parseNodeGuid,
  parseRate,
  parseStateLine,
} from '../../src/index.ts';
import { FIXTURES, find, samples, value } from '../helpers.ts';

const TREES = ['sysfs-opa', 'sysfs-qdr', 'sysfs-edr', 'sysfs-mixed', 'sysfs-mlx4-ext'];

function ports(tree: string): { device: string; port: string; dir: string }[] {
  const base = join(FIXTURES, tree, 'class/infiniband');
  return readdirSync(base).flatMap((device) =>
    readdirSync(join(base, device, 'ports')).map((port) => ({
      device,
      port,
      dir: join(base, device, 'ports', port),
    })),
  );
}

const read = (path: string) => readFileSync(path, 'utf8').trim();

describe('host agent on sysfs trees', () => {
  it.each(TREES)(
    '%s: port_data = 4 × counters/port_*_data, legacy_data = 4 × counters_ext/*_data_64, rate in bytes/s',
    async (tree) => {
      const text = await createHostCollector({
        sysfs: join(FIXTURES, tree),
        procfs: join(FIXTURES, 'procfs-mixed'),
      }).scrape();
      const list = samples(text);
      const bytes = (path: string) => {
        try {
          const words = read(path);
          return /^\d+$/.test(words) ? Number(BigInt(words) * 4n) : undefined;
        } catch {
          return undefined;
        }
      };
      for (const { device, port, dir } of ports(tree)) {
        const labels = { device, port };
        const series = (name: string) => find(list, name, labels)[0]?.value;
        expect(series('node_infiniband_port_data_transmitted_bytes_total')).toBe(
          bytes(join(dir, 'counters/port_xmit_data')),
        );
        expect(series('node_infiniband_port_data_received_bytes_total')).toBe(
          bytes(join(dir, 'counters/port_rcv_data')),
        );
        expect(series('node_infiniband_legacy_data_transmitted_bytes_total')).toBe(
          bytes(join(dir, 'counters_ext/port_xmit_data_64')),
        );
        const gbps = Number(read(join(dir, 'rate')).split(' ')[0]);
        expect(value(list, 'node_infiniband_rate_bytes_per_second', labels)).toBe((gbps * 1e9) / 8);
      }
    },
  );

  it('reports the Omni-Path HFI at 100 Gb/s as 12.5e9 bytes/s, its states and device info', async () => {
    const list = samples(
      await createHostCollector({ sysfs: join(FIXTURES, 'sysfs-opa'), procfs: '/nonexistent' }).scrape(),
    );
    const labels = { device: 'hfi1_0', port: '1' };
    expect(value(list, 'node_infiniband_rate_bytes_per_second', labels)).toBe(12.5e9);
    expect(value(list, 'node_infiniband_state_id', labels)).toBe(4);
    expect(value(list, 'node_infiniband_physical_state_id', labels)).toBe(5);
    expect(value(list, 'node_infiniband_link_downed_total', labels)).toBe(2);
    expect(find(list, 'node_infiniband_info')[0]?.labels).toEqual({
      board_id: 'Intel Omni-Path Host Fabric Interface Adapter 100 Series',
      device: 'hfi1_0',
      firmware_version: '1.21.1',
      hca_type: '',
    });
    expect(find(list, 'fabscope_infiniband_port_info', labels)[0]?.labels).toMatchObject({
      link_layer: 'InfiniBand',
      state: 'ACTIVE',
      physical_state: 'LinkUp',
    });
    // an absent procfs is not an error: the files are simply not there
    expect(find(list, 'fabscope_host_read_errors_total')).toEqual([]);
  });

  it('reads node GUIDs in colon form (even with stray text after them), hw_counters and a two-port QDR card', async () => {
    const edr = samples(
      await createHostCollector({ sysfs: join(FIXTURES, 'sysfs-edr'), procfs: '/nonexistent' }).scrape(),
    );
    expect(find(edr, 'fabscope_infiniband_node_info')[0]?.labels).toEqual({
      device: 'mlx5_0',
      node_guid: '0x248a070300b26c1e',
      node_desc: 'edr-gpu03 mlx5_0',
    });
    expect(value(edr, 'fabscope_infiniband_hw_counter_total', { counter: 'rx_read_requests' })).toBe(
      99123456,
    );
    expect(find(edr, 'fabscope_infiniband_hw_counter_total', { counter: 'lifespan' })).toEqual([]);
    expect(value(edr, 'node_infiniband_unicast_packets_transmitted_total')).toBe(8123400000);
    const qdr = samples(
      await createHostCollector({ sysfs: join(FIXTURES, 'sysfs-qdr'), procfs: '/nonexistent' }).scrape(),
    );
    expect(value(qdr, 'node_infiniband_state_id', { port: '2' })).toBe(1);
    expect(find(qdr, 'fabscope_infiniband_port_info', { port: '1' })[0]?.labels.link_layer).toBe(
      'InfiniBand',
    );
  });

  it('takes each series from the file node_exporter reads: mlx4 counters_ext at 0 does not hide counters/', async () => {
    // A ConnectX-3 on an old kernel: counters_ext/*_64 read 0 while counters/ count billions.
    const list = samples(
      await createHostCollector({ sysfs: join(FIXTURES, 'sysfs-mlx4-ext'), procfs: '/nonexistent' }).scrape(),
    );
    const labels = { device: 'mlx4_0', port: '1' };
    expect(value(list, 'node_infiniband_port_packets_received_total', labels)).toBe(6825908347);
    expect(value(list, 'node_infiniband_port_data_received_bytes_total', labels)).toBe(1706477086750 * 4);
    expect(value(list, 'node_infiniband_legacy_packets_received_total', labels)).toBe(0);
    expect(value(list, 'node_infiniband_legacy_data_received_bytes_total', labels)).toBe(0);
    // qib0: the 32-bit counters/ saturated, the 64-bit counters_ext/ go on; both are exposed.
    const qib = samples(
      await createHostCollector({ sysfs: join(FIXTURES, 'sysfs-mixed'), procfs: '/nonexistent' }).scrape(),
    );
    const q = { device: 'qib0', port: '1' };
    expect(value(qib, 'node_infiniband_port_data_transmitted_bytes_total', q)).toBe(4294967295 * 4);
    expect(value(qib, 'node_infiniband_legacy_data_transmitted_bytes_total', q)).toBe(73014444032 * 4);
    expect(value(qib, 'node_infiniband_legacy_packets_transmitted_total', q)).toBe(9876543210);
    expect(value(qib, 'node_infiniband_legacy_unicast_packets_received_total', q)).toBe(8765400000);
  });

  it('ignores class/net/bonding_masters (a regular file, not a device): no read errors, every interface read', async () => {
    const host = createHostCollector({ sysfs: join(FIXTURES, 'sysfs-mlx4-ext'), procfs: '/nonexistent' });
    await host.scrape();
    const list = samples(await host.scrape());
    expect(find(list, 'fabscope_host_read_errors_total')).toEqual([]);
    expect(find(list, 'node_network_up').map((s) => s.labels.device)).toEqual(['bond0', 'ib0']);
    expect(value(list, 'node_network_receive_bytes_total', { device: 'ib0' })).toBe(91234567890123);
  });

  it('exposes network interfaces, CPU and memory under node_exporter names', async () => {
    const list = samples(
      await createHostCollector({
        sysfs: join(FIXTURES, 'sysfs-mixed'),
        procfs: join(FIXTURES, 'procfs-mixed'),
      }).scrape(),
    );
    expect(value(list, 'node_network_transmit_bytes_total', { device: 'eth0' })).toBe(987654321012);
    expect(value(list, 'node_network_receive_drop_total', { device: 'eno2' })).toBe(17);
    expect(value(list, 'node_network_speed_bytes', { device: 'eth0' })).toBe(25000 * 125000);
    expect(find(list, 'node_network_speed_bytes', { device: 'eno2' })).toEqual([]); // -1: unknown → missing
    expect(find(list, 'node_network_speed_bytes', { device: 'lo' })).toEqual([]);
    expect(value(list, 'node_network_mtu_bytes', { device: 'ib0' })).toBe(2044);
    expect(value(list, 'node_network_up', { device: 'eth0' })).toBe(1);
    expect(value(list, 'node_network_up', { device: 'eno2' })).toBe(0);
    expect(value(list, 'node_cpu_seconds_total', { cpu: '1', mode: 'idle' })).toBeCloseTo(245973.23, 6);
    expect(value(list, 'node_memory_MemTotal_bytes')).toBe(263842128 * 1024);
    expect(value(list, 'node_memory_HugePages_Total')).toBe(0);
  });

  it('matches node_exporter 1.5 on the same tree, series for series (recorded exposition)', async () => {
    const ours = samples(
      await createHostCollector({
        sysfs: join(FIXTURES, 'sysfs-mixed'),
        procfs: join(FIXTURES, 'procfs-mixed'),
      }).scrape(),
    );
    const theirs = samples(readFileSync(join(FIXTURES, 'node-exporter/mixed.prom'), 'utf8'));
    const key = (s: { name: string; labels: Record<string, string> }) =>
      `${s.name}${JSON.stringify(Object.entries(s.labels).sort())}`;
    const ourValues = new Map(ours.map((s) => [key(s), s.value]));
    let compared = 0;
    for (const s of theirs) {
      if (!/^node_(infiniband|network_(transmit|receive)|cpu_seconds|memory)_/.test(s.name)) continue;
      expect(ourValues.get(key(s)), key(s)).toBeCloseTo(s.value, 0);
      compared++;
    }
    expect(compared).toBeGreaterThan(150);
  });
});

describe('host agent failure handling', () => {
  const dir = mkdtempSync(join(tmpdir(), 'fabscope-sysfs-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('counts an unreadable file in an error metric naming it, and goes on', async () => {
    cpSync(join(FIXTURES, 'sysfs-edr'), dir, { recursive: true });
    const file = join(dir, 'class/infiniband/mlx5_0/ports/1/counters/port_xmit_data');
    rmSync(file);
    mkdirSync(file); // reading a directory fails with EISDIR, like a file the driver refuses
    const host = createHostCollector({ sysfs: dir, procfs: '/nonexistent' });
    await host.scrape();
    const list = samples(await host.scrape());
    expect(
      value(list, 'fabscope_host_read_errors_total', {
        path: 'class/infiniband/mlx5_0/ports/1/counters/port_xmit_data',
      }),
    ).toBe(2);
    expect(find(list, 'node_infiniband_port_data_transmitted_bytes_total')).toEqual([]);
    expect(value(list, 'node_infiniband_port_data_received_bytes_total')).toBe(27182818284 * 4);
  });

  it('reads at scrape time: a counter that moves between scrapes is seen moving', async () => {
    const tree = mkdtempSync(join(tmpdir(), 'fabscope-sysfs-'));
    try {
      cpSync(join(FIXTURES, 'sysfs-opa'), tree, { recursive: true });
      const host = createHostCollector({ sysfs: tree, procfs: '/nonexistent' });
      const before = value(samples(await host.scrape()), 'node_infiniband_port_data_transmitted_bytes_total');
      writeFileSync(join(tree, 'class/infiniband/hfi1_0/ports/1/counters/port_xmit_data'), '198765432209\n');
      const after = value(samples(await host.scrape()), 'node_infiniband_port_data_transmitted_bytes_total');
      expect((after as number) - (before as number)).toBe(400);
    } finally {
      rmSync(tree, { recursive: true, force: true });
    }
  });

  it('filters devices by include and exclude patterns', async () => {
    const sysfs = join(FIXTURES, 'sysfs-mixed');
    const only = samples(
      await createHostCollector({ sysfs, procfs: '/nonexistent', include: /^mlx|^eth/ }).scrape(),
    );
    expect(new Set(find(only, 'node_infiniband_state_id').map((s) => s.labels.device))).toEqual(
      new Set(['mlx5_0']),
    );
    expect(new Set(find(only, 'node_network_up').map((s) => s.labels.device))).toEqual(new Set(['eth0']));
    const without = samples(
      await createHostCollector({ sysfs, procfs: '/nonexistent', exclude: /^(hfi|lo$)/ }).scrape(),
    );
    const devices = new Set(find(without, 'node_infiniband_state_id').map((s) => s.labels.device));
    expect(devices.has('hfi1_0')).toBe(false);
    expect(devices.has('qib0')).toBe(true);
    expect(find(without, 'node_network_up', { device: 'lo' })).toEqual([]);
  });
});

describe('sysfs value parsers', () => {
  it('parses rates, states and GUIDs', () => {
    expect(parseRate('100 Gb/sec (4X EDR)')).toBe(12.5e9);
    expect(parseRate('2.5 Gb/sec (1X SDR)')).toBe(312.5e6);
    expect(parseRate('N/A')).toBeNull();
    expect(parseStateLine('5: LinkUp')).toEqual({ id: 5, name: 'LinkUp' });
    expect(parseStateLine('garbage')).toBeNull();
    expect(parseNodeGuid('0a7f:bc12:45ef:d23bEOF')).toBe('0x0a7fbc1245efd23b');
    expect(parseNodeGuid('')).toBeNull();
  });
});

describe('sysfs value parsers on any input', () => {
  it('property: a value or null, never an exception, never a negative or non-finite number', () => {
    fc.assert(
      fc.property(fc.option(fc.string({ unit: 'binary', maxLength: 60 }), { nil: null }), (text) => {
        const rate = parseRate(text);
        expect(rate === null || (Number.isFinite(rate) && rate >= 0)).toBe(true);
        const state = parseStateLine(text);
        expect(state === null || (Number.isInteger(state.id) && state.id >= 0)).toBe(true);
        const guid = parseNodeGuid(text);
        expect(guid === null || /^0x[0-9a-f]{16}$/.test(guid)).toBe(true);
        const counter = parseCounter(text, 4);
        expect(counter === null || (Number.isFinite(counter) && counter >= 0)).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });

  it('property: a tree whose files hold anything scrapes to valid exposition, never an exception', async () => {
    const files = ['rate', 'state', 'phys_state', 'counters/port_xmit_data', 'counters_ext/port_rcv_data_64'];
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.string({ unit: 'binary', maxLength: 30 }), {
          minLength: files.length,
          maxLength: files.length,
        }),
        async (contents) => {
          const tree = mkdtempSync(join(tmpdir(), 'fabscope-sysfs-'));
          try {
            const port = join(tree, 'class/infiniband/mlx4_0/ports/1');
            mkdirSync(join(port, 'counters'), { recursive: true });
            mkdirSync(join(port, 'counters_ext'), { recursive: true });
            for (const [i, f] of files.entries()) writeFileSync(join(port, f), contents[i] as string);
            writeFileSync(join(tree, 'class/infiniband/mlx4_0/node_guid'), contents[0] as string);
            const list = samples(await createHostCollector({ sysfs: tree, procfs: '/nonexistent' }).scrape());
            expect(find(list, 'fabscope_infiniband_port_info')).toHaveLength(1);
            for (const sample of list) expect(Number.isNaN(sample.value)).toBe(false);
          } finally {
            rmSync(tree, { recursive: true, force: true });
          }
        },
      ),
      { numRuns: 40 },
    );
  });
});
