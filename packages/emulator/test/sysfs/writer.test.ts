import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startNodeExporter } from '@fabscope/test-support';
import { afterAll, describe, expect, it } from 'vitest';
import { PORT_COUNTER_NAMES, rateText, startSysfsWriter } from '../../src/index.ts';
import { routerEmulator } from '../helpers.ts';

const XMIT_DATA = PORT_COUNTER_NAMES.indexOf('XmitData');

describe('live sysfs and procfs trees', () => {
  const dir = mkdtempSync(join(tmpdir(), 'fabscope-sysfs-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const emulator = routerEmulator();
  emulator.startFlows({ pattern: 'iperf', from: 'opa-node', to: 'eth-node', streams: 16 });
  emulator.injectFault({ type: 'constraint-errors', node: 'opa-node', port: 1, rate: 3 });
  emulator.injectFault({ type: 'buffer-overruns', node: 'opa-node', port: 1, rate: 100 });
  emulator.advance(10_000);
  const writer = startSysfsWriter(emulator, dir, { intervalMs: 60_000 });
  writer.stop();
  const read = (path: string) => readFileSync(join(dir, path), 'utf8');
  const hosts = Object.fromEntries(emulator.hostTelemetry().map((h) => [h.name, h]));

  it('writes IB counters in 4-octet words, rate and state as the kernel does', () => {
    const port = 'opa-node/sys/class/infiniband/hfi1_0/ports/1';
    const sent = hosts['opa-node']?.ports[0]?.counters[XMIT_DATA] as bigint;
    expect(sent).toBeGreaterThan(0n);
    expect(read(`${port}/counters/port_xmit_data`)).toBe(`${sent / 4n}\n`);
    expect(read(`${port}/rate`)).toBe('100 Gb/sec (4X EDR)\n');
    expect(read(`${port}/state`)).toBe('4: ACTIVE\n');
    expect(read(`${port}/phys_state`)).toBe('5: LinkUp\n');
    expect(read(`${port}/link_layer`)).toBe('InfiniBand\n');
    expect(read(`${port}/counters/symbol_error`)).toBe('0\n');
    // The PM category counters a fault raises, at the basic PortCounters widths: 30 constraint
    // errors in 10 s; 1000 buffer overruns saturate the 4-bit counter at 15.
    expect(read(`${port}/counters/port_rcv_constraint_errors`)).toBe('30\n');
    expect(read(`${port}/counters/excessive_buffer_overrun_errors`)).toBe('15\n');
    expect(read('opa-node/sys/class/infiniband/hfi1_0/node_guid')).toMatch(
      /^[0-9a-f]{4}(:[0-9a-f]{4}){3}\n$/,
    );
    expect(read('router/sys/class/infiniband/mlx5_0/ports/1/link_layer')).toBe('Ethernet\n');
    expect(rateText(56)).toBe('56 Gb/sec (4X FDR)');
  });

  it('counts IP traffic in the network interfaces, and keeps the router busy about 8 %', () => {
    const txBytes = BigInt(read('opa-node/sys/class/net/ib0/statistics/tx_bytes').trim());
    // 98.6 Gb/s for 10 s.
    expect(Number(txBytes) / 10 / 12.5e9).toBeCloseTo(0.986, 3);
    expect(read('eth-node/sys/class/net/eth0/speed')).toBe('100000\n');
    expect(read('eth-node/sys/class/net/eth0/operstate')).toBe('up\n');
    const stat = read('router/proc/stat');
    const cpu = (stat.split('\n')[0] as string).split(/\s+/).slice(1).map(Number);
    const busy = (cpu[0] as number) + (cpu[2] as number) + (cpu[6] as number);
    const total = cpu.reduce((a, b) => a + b, 0);
    expect(busy / total).toBeGreaterThan(0.07);
    expect(busy / total).toBeLessThan(0.09);
    expect(read('router/proc/meminfo')).toMatch(/^MemTotal: +201326592 kB\n/);
  });

  it('is read unchanged by node_exporter (Debian prometheus-node-exporter)', async () => {
    const exporter = await startNodeExporter({
      sysfs: join(dir, 'opa-node/sys'),
      procfs: join(dir, 'opa-node/proc'),
      collectors: ['infiniband', 'cpu', 'meminfo', 'netdev', 'stat'],
    });
    try {
      const text = await (await fetch(exporter.url)).text();
      const value = (pattern: RegExp) => Number(pattern.exec(text)?.[1]);
      const sent = Number(hosts['opa-node']?.ports[0]?.counters[XMIT_DATA]);
      expect(
        value(/^node_infiniband_port_data_transmitted_bytes_total\{device="hfi1_0",port="1"\} (\S+)$/m),
      ).toBeCloseTo(sent, -2);
      expect(text).toMatch(
        /^node_infiniband_info\{board_id="[^"]+",device="hfi1_0",firmware_version="1\.27\.0"/m,
      );
      expect(value(/^node_infiniband_rate_bytes_per_second\{device="hfi1_0",port="1"\} (\S+)$/m)).toBe(
        12.5e9,
      );
      expect(value(/^node_network_transmit_bytes_total\{device="ib0"\} (\S+)$/m)).toBeGreaterThan(1e11);
      expect(value(/^node_memory_MemTotal_bytes (\S+)$/m)).toBe(192 * 1024 ** 3);
      expect(text).toMatch(/^node_cpu_seconds_total\{cpu="55",mode="idle"\} \d/m);
    } finally {
      await exporter.stop();
    }
  });
});
