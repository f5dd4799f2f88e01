import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PORT_COUNTER_NAMES, startSysfsWriter } from '../../src/index.ts';
import { routerEmulator } from '../helpers.ts';

const XMIT_WAIT = PORT_COUNTER_NAMES.indexOf('XmitWait');

describe("the emulator's RoCE host files", () => {
  const dir = mkdtempSync(join(tmpdir(), 'fabscope-roce-sysfs-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const emulator = routerEmulator();
  // One lane of four left at the far end: eth-node sends faster than the path drains, and waits.
  emulator.startFlows({ pattern: 'iperf', from: 'eth-node', to: 'opa-node', streams: 16 });
  emulator.injectFault({ type: 'link-width-downgrade', node: 'opa-node', port: 1, lanes: 3 });
  emulator.advance(10_000);
  startSysfsWriter(emulator, dir, { intervalMs: 60_000 }).stop();
  const read = (path: string) => readFileSync(join(dir, path), 'utf8');

  it('gives an Ethernet port its netdev, zero loss counters and no congestion counters', () => {
    const port = 'eth-node/sys/class/infiniband/mlx5_0/ports/1';
    expect(read(`${port}/gid_attrs/ndevs/0`)).toBe('eth0\n');
    expect(read(`${port}/hw_counters/out_of_sequence`)).toBe('0\n');
    expect(read(`${port}/hw_counters/local_ack_timeout_err`)).toBe('0\n');
    expect(() => read(`${port}/hw_counters/np_cnp_sent`)).toThrow(/ENOENT/);
    // OPA ports are not RoCE.
    expect(() => read('opa-node/sys/class/infiniband/hfi1_0/ports/1/gid_attrs/ndevs/0')).toThrow(/ENOENT/);
  });

  it("writes ethtool -S in mlx5's format, the port's XmitWait as pause received on priority 3", () => {
    const host = emulator.hostTelemetry().find((h) => h.name === 'eth-node');
    const ticks = host?.ports[0]?.counters[XMIT_WAIT] as bigint;
    // Omni-Path fabric: XmitWait in 8-byte units of the 100 Gb/s Ethernet port's time.
    const micros = (ticks * 8n * 8n * 1_000_000n) / 100_000_000_000n;
    expect(read('eth-node/ethtool/eth0')).toBe(`NIC statistics:\n     rx_prio3_pause_duration: ${micros}\n`);
    // Most of the 10 s: the port sends at a quarter of its rate and is held back the rest.
    expect(Number(micros) / 1e6).toBeGreaterThan(5);
    expect(Number(micros) / 1e6).toBeLessThanOrEqual(10);
    expect(read('router/ethtool/eth0')).toBe('NIC statistics:\n     rx_prio3_pause_duration: 0\n');
  });
});
