import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { ROCE_COUNTERS, ROCE_PAUSE_SERIES, ROCE_UNKNOWN_SERIES } from '@fabscope/contracts/metrics';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { createHostCollector, type EthtoolStatistics, ROCE_DRIVERS } from '../../src/index.ts';
import { FIXTURES, find, samples, value } from '../helpers.ts';

const roots: string[] = [];
afterAll(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

function put(root: string, path: string, text: string): void {
  mkdirSync(dirname(join(root, path)), { recursive: true });
  writeFileSync(join(root, path), text);
}

const MLX5_FILES: string[] = Object.values(ROCE_DRIVERS.mlx5.hwCounters);

/**
 * A host in the kernel's layout: mlx5_0 (RoCE, netdev from gid_attrs/ndevs/0), bnxt_re0 (netdev from
 * device/net/), ionic_0, and mlx5_1 on InfiniBand, which has no pause. Counter values are distinct by file.
 */
function hostTree(): string {
  const root = mkdtempSync(join(tmpdir(), 'fabscope-roce-'));
  roots.push(root);
  const port = (device: string, linkLayer: string) => {
    const dir = `class/infiniband/${device}/ports/1`;
    put(root, `${dir}/link_layer`, `${linkLayer}\n`);
    put(root, `${dir}/state`, '4: ACTIVE\n');
    put(root, `${dir}/hw_counters/lifespan`, '10\n');
    return dir;
  };
  const mlx5 = port('mlx5_0', 'Ethernet');
  for (const [i, file] of MLX5_FILES.entries()) put(root, `${mlx5}/hw_counters/${file}`, `${1000 + i}\n`);
  put(root, `${mlx5}/hw_counters/rx_write_requests`, '5\n');
  put(root, `${mlx5}/gid_attrs/ndevs/0`, 'ens1f0np0\n');
  const bnxt = port('bnxt_re0', 'Ethernet');
  for (const [i, file] of Object.values(ROCE_DRIVERS.bnxt.hwCounters).entries())
    put(root, `${bnxt}/hw_counters/${file}`, `${2000 + i}\n`);
  mkdirSync(join(root, 'class/infiniband/bnxt_re0/device/net/ens2f0np0'), { recursive: true });
  port('ionic_0', 'Ethernet');
  mkdirSync(join(root, 'class/infiniband/ionic_0/device/net/enp3s0'), { recursive: true });
  const ib = port('mlx5_1', 'InfiniBand');
  put(root, `${ib}/hw_counters/out_of_buffer`, '7\n');
  return root;
}

const ETHTOOL: Record<string, string> = {
  ens1f0np0:
    'NIC statistics:\n     rx_packets: 10\n     rx_prio3_pause: 40\n     tx_prio3_pause: 41\n' +
    '     rx_prio3_pause_duration: 2500000\n     tx_prio3_pause_duration: 1500\n' +
    '     rx_prio3_pause_transition: 42\n     rx_global_pause: 99\n',
  ens2f0np0:
    'NIC statistics:\n     rx_pfc_ena_frames_pri3: 50\n     tx_pfc_ena_frames_pri3: 51\n' +
    '     pfc_pri3_rx_duration_us: 3000000\n     pfc_pri3_tx_transitions: 52\n',
  enp3s0: 'NIC statistics:\n     frames_rx_pripause: 77\n     rx_pripause_3_1us_count: 4000000\n',
};
const recorded: EthtoolStatistics = async (netdev) => {
  const text = ETHTOOL[netdev];
  if (text === undefined) throw new Error(`ethtool -S ${netdev} failed (1): no such device`);
  return text;
};

const scrape = async (sysfs: string, ethtool: EthtoolStatistics | null = recorded) =>
  samples(await createHostCollector({ sysfs, procfs: join(FIXTURES, 'procfs-mixed'), ethtool }).scrape());

describe('RoCE counters on a host tree in the kernel layout', () => {
  it('names each driver hw_counters file by one family', async () => {
    const list = await scrape(hostTree());
    const mlx5 = { device: 'mlx5_0', port: '1' };
    expect(value(list, ROCE_COUNTERS.cnpSent, mlx5)).toBe(1000 + MLX5_FILES.indexOf('np_cnp_sent'));
    expect(value(list, ROCE_COUNTERS.cnpHandled, mlx5)).toBe(1000 + MLX5_FILES.indexOf('rp_cnp_handled'));
    expect(value(list, ROCE_COUNTERS.ecnMarkedReceived, mlx5)).toBe(
      1000 + MLX5_FILES.indexOf('np_ecn_marked_roce_packets'),
    );
    expect(value(list, ROCE_COUNTERS.adaptiveRetransmissions, mlx5)).toBe(
      1000 + MLX5_FILES.indexOf('roce_adp_retrans'),
    );
    const bnxt = { device: 'bnxt_re0', port: '1' };
    expect(value(list, ROCE_COUNTERS.outOfBuffer, bnxt)).toBe(2000);
    expect(value(list, ROCE_COUNTERS.outOfSequence, bnxt)).toBe(2001);
    expect(value(list, ROCE_COUNTERS.duplicateRequests, bnxt)).toBe(2004);
    // mlx5_1 is InfiniBand: not a RoCE port.
    expect(find(list, ROCE_COUNTERS.outOfBuffer, { device: 'mlx5_1' })).toEqual([]);
    // What bnxt_re does not count stays unknown-free: it is not in its table.
    expect(find(list, ROCE_COUNTERS.cnpSent, bnxt)).toEqual([]);
    expect(find(list, ROCE_UNKNOWN_SERIES)).toEqual([]);
  });

  it('reads per-priority pause from each driver ethtool names, durations in seconds', async () => {
    const list = await scrape(hostTree());
    const at = (device: string, netdev: string, direction: string) => ({
      device,
      port: '1',
      netdev,
      direction,
      priority: '3',
    });
    expect(value(list, ROCE_PAUSE_SERIES.frames, at('mlx5_0', 'ens1f0np0', 'rx'))).toBe(40);
    expect(value(list, ROCE_PAUSE_SERIES.frames, at('mlx5_0', 'ens1f0np0', 'tx'))).toBe(41);
    expect(value(list, ROCE_PAUSE_SERIES.durationSeconds, at('mlx5_0', 'ens1f0np0', 'rx'))).toBe(2.5);
    expect(value(list, ROCE_PAUSE_SERIES.durationSeconds, at('mlx5_0', 'ens1f0np0', 'tx'))).toBe(0.0015);
    expect(value(list, ROCE_PAUSE_SERIES.transitions, at('mlx5_0', 'ens1f0np0', 'rx'))).toBe(42);
    expect(value(list, ROCE_PAUSE_SERIES.frames, at('bnxt_re0', 'ens2f0np0', 'rx'))).toBe(50);
    expect(value(list, ROCE_PAUSE_SERIES.durationSeconds, at('bnxt_re0', 'ens2f0np0', 'rx'))).toBe(3);
    expect(value(list, ROCE_PAUSE_SERIES.transitions, at('bnxt_re0', 'ens2f0np0', 'tx'))).toBe(52);
    expect(value(list, ROCE_PAUSE_SERIES.durationSeconds, at('ionic_0', 'enp3s0', 'rx'))).toBe(4);
    // Only per-priority names: no global pause, no all-priority sum.
    expect(find(list, ROCE_PAUSE_SERIES.frames)).toHaveLength(4);
  });

  it('loses only the pause of a netdev whose ethtool fails, with its reason', async () => {
    const failing: EthtoolStatistics = async (netdev) => {
      if (netdev === 'ens2f0np0') return 'NIC statistics:\n     rx_pfc_ena_frames_pri3: 5'; // cut short
      return recorded(netdev);
    };
    const list = await scrape(hostTree(), failing);
    const unknown = find(list, ROCE_UNKNOWN_SERIES);
    expect(unknown).toHaveLength(1);
    expect(unknown[0]?.labels).toMatchObject({ device: 'bnxt_re0', counter: 'ethtool -S ens2f0np0' });
    expect(unknown[0]?.labels.reason).toMatch(/line 2: .*cut short/);
    expect(find(list, ROCE_PAUSE_SERIES.frames, { device: 'bnxt_re0' })).toEqual([]);
    expect(value(list, ROCE_COUNTERS.outOfBuffer, { device: 'bnxt_re0', port: '1' })).toBe(2000);
    expect(value(list, ROCE_PAUSE_SERIES.frames, { device: 'mlx5_0', direction: 'rx' })).toBe(40);
  });

  it('writes the families once, typed, with HELP', async () => {
    const text = await createHostCollector({
      sysfs: hostTree(),
      procfs: join(FIXTURES, 'procfs-mixed'),
      ethtool: recorded,
    }).scrape();
    for (const family of [...Object.values(ROCE_PAUSE_SERIES), ROCE_COUNTERS.cnpSent]) {
      expect(text.match(new RegExp(`^# TYPE ${family} counter$`, 'gm'))).toHaveLength(1);
      expect(text.match(new RegExp(`^# HELP ${family} .+$`, 'gm'))).toHaveLength(1);
    }
    expect(text).toContain(
      'fabscope_roce_pause_frames_total{device="mlx5_0",port="1",netdev="ens1f0np0",direction="rx",priority="3"} 40\n',
    );
  });

  type Fault = 'missing' | 'unreadable' | 'garbage';
  const REASON: Record<Fault, RegExp> = {
    missing: /^absent \(ENOENT\)$/,
    unreadable: /^unreadable \(EISDIR\)$/,
    garbage: /^not a counter: "N\/A \(no PMA\)"$/,
  };

  it('loses exactly the hw_counters files removed or unreadable, never the device (fast-check)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.dictionary(
          fc.constantFrom(...MLX5_FILES),
          fc.constantFrom<Fault>('missing', 'unreadable', 'garbage'),
        ),
        async (faults) => {
          const root = hostTree();
          const dir = join(root, 'class/infiniband/mlx5_0/ports/1/hw_counters');
          for (const [file, fault] of Object.entries(faults)) {
            rmSync(join(dir, file));
            // A directory in a file's place fails to read as EISDIR, even for root (chmod would not).
            if (fault === 'unreadable') mkdirSync(join(dir, file));
            if (fault === 'garbage') writeFileSync(join(dir, file), 'N/A (no PMA)\n');
          }
          const list = await scrape(root);
          const labels = { device: 'mlx5_0', port: '1' };
          const fields = Object.entries(ROCE_DRIVERS.mlx5.hwCounters) as [
            keyof typeof ROCE_COUNTERS,
            string,
          ][];
          for (const [field, file] of fields) {
            const fault = faults[file];
            const got = value(list, ROCE_COUNTERS[field], labels);
            const unknown = find(list, ROCE_UNKNOWN_SERIES, { ...labels, counter: `hw_counters/${file}` });
            if (fault) {
              expect(got).toBeUndefined();
              expect(unknown).toHaveLength(1);
              expect(unknown[0]?.labels.reason).toMatch(REASON[fault]);
            } else {
              expect(got).toBe(1000 + MLX5_FILES.indexOf(file));
              expect(unknown).toEqual([]);
            }
          }
          expect(find(list, ROCE_UNKNOWN_SERIES)).toHaveLength(Object.keys(faults).length);
          expect(value(list, ROCE_PAUSE_SERIES.frames, { ...labels, direction: 'rx' })).toBe(40);
          expect(value(list, ROCE_COUNTERS.outOfBuffer, { device: 'bnxt_re0', port: '1' })).toBe(2000);
          rmSync(root, { recursive: true, force: true });
        },
      ),
      { numRuns: 25 },
    );
  });

  it('says so when a RoCE port has no netdev to ask ethtool about', async () => {
    const root = hostTree();
    rmSync(join(root, 'class/infiniband/ionic_0/device'), { recursive: true });
    const list = await scrape(root);
    expect(
      find(list, ROCE_UNKNOWN_SERIES, { device: 'ionic_0', counter: 'ethtool -S' })[0]?.labels.reason,
    ).toBe('no netdev in gid_attrs/ndevs/0 or device/net/');
    const none = await scrape(root, null);
    expect(find(none, ROCE_UNKNOWN_SERIES)).toEqual([]);
    expect(find(none, ROCE_PAUSE_SERIES.frames)).toEqual([]);
  });

  it('asks at most four netdevs at once, each once, and writes them in port order', async () => {
    const root = hostTree();
    // Nine more mlx5 ports; the last two share a bond's netdev.
    for (let i = 2; i <= 10; i++) {
      const dir = `class/infiniband/mlx5_${i}/ports/1`;
      put(root, `${dir}/link_layer`, 'Ethernet\n');
      put(root, `${dir}/gid_attrs/ndevs/0`, i >= 9 ? 'bond0\n' : `eth${i}\n`);
    }
    let running = 0;
    let most = 0;
    const calls: string[] = [];
    const slow: EthtoolStatistics = async (netdev) => {
      calls.push(netdev);
      running++;
      most = Math.max(most, running);
      await new Promise((resolve) => setImmediate(resolve));
      running--;
      return ETHTOOL[netdev] ?? `NIC statistics:\n     rx_prio3_pause: ${netdev.length}\n`;
    };
    const list = await scrape(root, slow);
    expect(most).toBe(4);
    expect(calls.filter((netdev) => netdev === 'bond0')).toHaveLength(1);
    expect(calls).toHaveLength(11);
    const devices = find(list, ROCE_PAUSE_SERIES.frames, { direction: 'rx' }).map((s) => s.labels.device);
    expect(devices).toEqual(['bnxt_re0', 'mlx5_0', ...[10, 2, 3, 4, 5, 6, 7, 8, 9].map((i) => `mlx5_${i}`)]);
  });
});
