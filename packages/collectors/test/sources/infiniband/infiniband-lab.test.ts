import { ibsimNetFile, type Lab, startLab } from '@fabscope/lab';
import { type Fabric, FabricBuilder, generatedGuid } from '@fabscope/topology';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFabricRegistry, type InfinibandReaderKind, infinibandSource } from '../../../src/index.ts';
import { described, find, pollUntil, type Sample, samples, value } from '../../helpers.ts';

// A real subnet: ibsim answers the MADs, OpenSM assigns the LIDs, ibnetdiscover and perfquery are
// the Debian infiniband-diags. Two switches joined by a 4x SDR cable, three hosts at 4x EDR.
function labFabric(): Fabric {
  const b = new FabricBuilder('lab', 'infiniband');
  b.addNode({ name: 'sw1', type: 'switch', guid: generatedGuid(1, 0), portCount: 8, tier: 1 });
  b.addNode({ name: 'sw2', type: 'switch', guid: generatedGuid(1, 1), portCount: 8, tier: 1 });
  for (const [i, name] of ['hostA', 'hostB', 'hostC'].entries()) {
    b.addNode({ name, type: 'host', guid: generatedGuid(0, i), portCount: 1 });
  }
  const edr = { widthSpeed: '4xEDR' };
  b.connect('hostA', 1, 'sw1', 1, 100, 'host', edr);
  b.connect('hostB', 1, 'sw1', 2, 100, 'host', edr);
  b.connect('hostC', 1, 'sw2', 1, 100, 'host', edr);
  b.connect('sw1', 5, 'sw2', 5, 10, 'isl', { widthSpeed: '4xSDR' });
  return b.build();
}

// A read waits for the real subnet's answers: on a loaded machine discovery alone can take longer
// than the registry's default 10 s, which failed a read that was merely slow.
const READ_TIMEOUT_MS = 25_000;

let lab: Lab;
beforeAll(async () => {
  lab = await startLab({
    net: ibsimNetFile(labFabric()),
    routing: 'minhop',
    sockName: `collectors-${process.pid}-${Math.random().toString(36).slice(2, 8)}`,
  });
}, 60_000);
afterAll(async () => {
  await lab?.stop();
});

async function scrapeWith(
  reader: InfinibandReaderKind,
): Promise<{ list: Sample[]; close: () => Promise<void> }> {
  const source = infinibandSource({ fabric: 'lab', env: lab.env, cwd: lab.cwd, reader });
  const { scrape } = createFabricRegistry({ source, timeoutMs: READ_TIMEOUT_MS });
  return { list: samples(await scrape()), close: () => source.close() };
}

const data = 'fabscope_port_data_transmitted_bytes_total';
const portOf = (list: Sample[], node: string, port: number) =>
  described(list).filter((s) => s.labels.node_name === node && s.labels.port === String(port));
const one = (list: Sample[], name: string, node: string, port: number) =>
  portOf(list, node, port).find((s) => s.name === name)?.value;

describe.each(['mad', 'perfquery'] as const)('infiniband source on the ibsim lab, %s reader', (reader) => {
  it('reads every switch and host port by LID, named by NodeDescription, at the data rate', async () => {
    const { list, close } = await scrapeWith(reader);
    await close();
    const info = find(list, 'fabscope_port_info');
    const ports = info.map((s) => `${s.labels.node_name}/${s.labels.port}`).sort();
    // Every cabled port, hosts included; never an uncabled one (sw1 has 8 ports, 3 cabled).
    expect(ports).toEqual(['hostA/1', 'hostB/1', 'hostC/1', 'sw1/1', 'sw1/2', 'sw1/5', 'sw2/1', 'sw2/5']);
    for (const s of info)
      expect(one(list, data, s.labels.node_name as string, Number(s.labels.port))).toBeGreaterThanOrEqual(0);
    // 4x SDR carries 1 GB/s of data (8b/10b), 4x EDR 12.5 GB/s.
    expect(one(list, 'fabscope_port_rate_bytes_per_second', 'sw1', 5)).toBe(1e9);
    expect(one(list, 'fabscope_port_rate_bytes_per_second', 'hostA', 1)).toBe(12.5e9);
    expect(find(info, 'fabscope_port_info', { node_name: 'hostA' })[0]?.labels.remote_node_name).toBe('sw1');
    expect(value(list, 'fabscope_fabric_source_up')).toBe(1);
    // Collection coverage: every node answered, each with the time its read took.
    const targets = find(list, 'fabscope_fabric_target_up');
    expect(targets).toHaveLength(5);
    expect(targets.every((t) => t.value === 1)).toBe(true);
    expect(find(list, 'fabscope_fabric_target_collect_duration_seconds').every((t) => t.value > 0)).toBe(
      true,
    );
  }, 30_000);

  it('reads what PerformanceSet wrote, data in 4-octet words, errors and XmitWait from PortCounters', async () => {
    const words = reader === 'mad' ? 123_456_789_012n : 98_765_432_101n;
    await lab.performanceSet('sw1', 5, 'PortCountersExtended.PortXmitData', words);
    await lab.performanceSet('hostB', 1, 'PortCountersExtended.PortRcvData', words + 1n);
    await lab.performanceSet('sw2', 5, 'PortCountersExtended.PortXmitPkts', 4242);
    await lab.performanceSet('sw1', 5, 'PortCounters.SymbolErrorCounter', 307);
    await lab.performanceSet('sw1', 5, 'PortCounters.LinkDownedCounter', 3);
    await lab.performanceSet('hostC', 1, 'PortCounters.PortRcvErrors', 11);
    await lab.performanceSet('sw1', 5, 'PortCounters.PortXmitWait', 500);
    const { list, close } = await scrapeWith(reader);
    await close();
    // ibsim counts the MADs it carries on top of what was set (a few hundred bytes each).
    const near = (actual: number | undefined, expected: bigint) => {
      expect(actual).toBeGreaterThanOrEqual(Number(expected));
      expect(actual).toBeLessThan(Number(expected) + 1e6);
    };
    near(one(list, data, 'sw1', 5), words * 4n);
    near(one(list, 'fabscope_port_data_received_bytes_total', 'hostB', 1), (words + 1n) * 4n);
    near(one(list, 'fabscope_port_packets_transmitted_total', 'sw2', 5), 4242n);
    expect(one(list, 'fabscope_port_symbol_error_total', 'sw1', 5)).toBe(307);
    expect(one(list, 'fabscope_port_link_downed_total', 'sw1', 5)).toBe(3);
    expect(one(list, 'fabscope_port_errors_received_total', 'hostC', 1)).toBe(11);
    expect(one(list, 'fabscope_port_transmit_wait_total', 'sw1', 5)).toBe(500);
    // One XmitWait tick: a 4-octet word at the port's data rate.
    expect(one(list, 'fabscope_port_transmit_wait_tick_seconds', 'sw1', 5)).toBeCloseTo(4 / 1e9, 15);
  }, 30_000);
});

describe('infiniband source when the fabric changes', () => {
  it('a pulled cable is down at both ends within one read, not missing; plugged back it is up', async () => {
    const source = infinibandSource({ fabric: 'lab', env: lab.env, cwd: lab.cwd });
    const { scrape } = createFabricRegistry({ source, timeoutMs: READ_TIMEOUT_MS });
    try {
      const up = samples(await scrape());
      expect(one(up, 'fabscope_port_link_up', 'sw1', 5)).toBe(1);
      // A pulled cable counts in LinkDownedCounter at both ends (ibsim's Unlink does not): its PortInfo is
      // read in the next sweep, not at the latest portInfoEvery sweeps on.
      for (const node of ['sw1', 'sw2'])
        await lab.performanceSet(node, 5, 'PortCounters.LinkDownedCounter', 1n);
      await lab.unlink('sw1', 5);
      const down = samples(await scrape());
      expect(one(down, 'fabscope_port_link_up', 'sw1', 5)).toBe(0);
      expect(one(down, 'fabscope_port_link_up', 'sw2', 5)).toBe(0);
      // Still known with its far end and still read: a down link, not a stale one.
      expect(
        portOf(down, 'sw1', 5).find((s) => s.name === 'fabscope_port_info')?.labels.remote_node_name,
      ).toBe('sw2');
      expect(one(down, data, 'sw1', 5)).toBeGreaterThanOrEqual(0);
      expect(one(down, 'fabscope_port_link_up', 'hostA', 1)).toBe(1);
      await lab.link({ node: 'sw1', port: 5 }, { node: 'sw2', port: 5 });
      // ibsim brings the cable up at once; OpenSM makes it Active in its next sweep.
      const back = await pollUntil(
        async () => one(samples(await scrape()), 'fabscope_port_link_up', 'sw1', 5),
        (up) => up === 1,
        20_000,
      );
      expect(back).toBe(1);
    } finally {
      await source.close();
    }
  }, 60_000);

  it('keeps reading every port by LID with the subnet manager stopped', async () => {
    await lab.stopSm();
    expect(lab.smRunning()).toBe(false);
    const { list, close } = await scrapeWith('mad');
    await close();
    expect(find(list, 'fabscope_port_info')).toHaveLength(8);
    expect(find(list, data).every((s) => Number.isFinite(s.value))).toBe(true);
    expect(find(list, data)).toHaveLength(8);
    expect(value(list, 'fabscope_fabric_ports_unread', { source: 'infiniband:lab' })).toBe(0);
  }, 30_000);
});
