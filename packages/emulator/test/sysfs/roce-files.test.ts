import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildScenario, fatTreeRouting } from '@fabscope/topology';
import { afterAll, describe, expect, it } from 'vitest';
import { createEmulator, startSysfsWriter } from '../../src/index.ts';
import { routerEmulator } from '../helpers.ts';

describe("the emulator's RoCE host files", () => {
  const dir = mkdtempSync(join(tmpdir(), 'fabscope-roce-sysfs-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const fabric = buildScenario('roce-leafspine');
  const emulator = createEmulator({ fabric, tables: fatTreeRouting(fabric), seed: 1 });
  emulator.startFlows({ pattern: 'incast', to: 'host33', from: ['host1', 'host2', 'host17', 'host18'] });
  emulator.startFlows({ pattern: 'pairs', pairs: [['host9', 'host40']] });
  emulator.advance(10_000);
  startSysfsWriter(emulator, dir, { intervalMs: 60_000 }).stop();
  const read = (path: string) => readFileSync(join(dir, path), 'utf8');
  const hw = (host: string, file: string) =>
    Number(read(`${host}/sys/class/infiniband/mlx5_0/ports/1/hw_counters/${file}`));
  const ports = emulator.ethernetPortCounters();
  const of = (host: string) => ports.find((p) => p.nodeName === host && p.portNumber === 1);

  it("gives an Ethernet port its netdev, zero loss counters and mlx5's congestion counters", () => {
    expect(read('host1/sys/class/infiniband/mlx5_0/ports/1/gid_attrs/ndevs/0')).toBe('eth0\n');
    expect(hw('host1', 'out_of_buffer')).toBe(0);
    expect(hw('host1', 'local_ack_timeout_err')).toBe(0);
    // CNPs: the receiver sends one per marked flow per 50 µs; each sender handles its own.
    expect(hw('host33', 'np_cnp_sent')).toBe(4 * 20_000 * 10);
    expect(hw('host1', 'rp_cnp_handled')).toBe(20_000 * 10);
    expect(hw('host33', 'np_ecn_marked_roce_packets')).toBe(Number(of('host33')?.ecnMarkedReceived));
    expect(hw('host33', 'np_ecn_marked_roce_packets')).toBeGreaterThan(1e6);
    // The victim is neither marked nor notified.
    expect(hw('host40', 'np_ecn_marked_roce_packets')).toBe(0);
    expect(hw('host9', 'rp_cnp_handled')).toBe(0);
  });

  it("writes ethtool -S in mlx5's format: pause frames and µs on priority 3, each way", () => {
    const host1 = of('host1');
    expect(read('host1/ethtool/eth0')).toBe(
      'NIC statistics:\n' +
        `     rx_prio3_pause: ${host1?.rxPauseFrames}\n` +
        `     rx_prio3_pause_duration: ${host1?.rxPauseMicroseconds}\n` +
        '     tx_prio3_pause: 0\n' +
        '     tx_prio3_pause_duration: 0\n',
    );
    // Each of four senders gets a quarter of the egress while DCQCN paces it at that plus a quarter of the
    // rest of its line: paused 1 − 99/173 of the 10 s.
    expect(Number(host1?.rxPauseMicroseconds) / 1e6).toBeCloseTo(10 * (1 - 99 / 173.25), 1);
    expect(read('host33/ethtool/eth0')).toContain('rx_prio3_pause_duration: 0\n');
  });

  it("keeps Omni-Path ports out of RoCE, and a router's NIC that nothing holds back unpaused", () => {
    const other = mkdtempSync(join(tmpdir(), 'fabscope-roce-router-'));
    try {
      const router = routerEmulator();
      router.startFlows({ pattern: 'iperf', from: 'eth-node', to: 'opa-node', streams: 4 });
      router.advance(1000);
      startSysfsWriter(router, other, { intervalMs: 60_000 }).stop();
      const text = (path: string) => readFileSync(join(other, path), 'utf8');
      expect(() => text('opa-node/sys/class/infiniband/hfi1_0/ports/1/gid_attrs/ndevs/0')).toThrow(/ENOENT/);
      expect(text('eth-node/ethtool/eth0')).toContain('rx_prio3_pause_duration: 0\n');
    } finally {
      rmSync(other, { recursive: true, force: true });
    }
  });
});
