// Counters that never go blind, on a real simulated subnet: ibsim's PMA keeps the narrow PortCounters
// (CapabilityMask2 0, no PortSamplesControl) and saturates them; PerformanceSet writes them as a congested
// port would count. Each read is stamped by an injected clock a second apart, so 120 s take a few.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { EDGE_SERIES as EDGE } from '@fabscope/contracts/metrics';
import { ibsimNetFile, type Lab, startLab } from '@fabscope/lab';
import { FabricBuilder, generatedGuid } from '@fabscope/topology';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createFabricRegistry,
  type FabricSource,
  infinibandSource,
  parsePerfquery,
} from '../../../src/index.ts';
import { described, find, type Sample, samples, value } from '../../helpers.ts';

const run = promisify(execFile);
/** 4x EDR: 12.5 GB/s of data, a PortXmitWait tick (Tick 0) is 4 bytes of it: 3.125e9 ticks a second. */
const TICKS_PER_SECOND = 12.5e9 / 4;
const WAIT_MAX = 2 ** 32 - 1;

let lab: Lab;
beforeAll(async () => {
  const b = new FabricBuilder('counters', 'infiniband');
  b.addNode({ name: 'sw1', type: 'switch', guid: generatedGuid(1, 0), portCount: 8, tier: 1 });
  b.addNode({ name: 'hostA', type: 'host', guid: generatedGuid(0, 0), portCount: 1 });
  b.addNode({ name: 'hostB', type: 'host', guid: generatedGuid(0, 1), portCount: 1 });
  b.connect('hostA', 1, 'sw1', 1, 100, 'host', { widthSpeed: '4xEDR' });
  b.connect('hostB', 1, 'sw1', 2, 100, 'host', { widthSpeed: '4xEDR' });
  lab = await startLab({
    net: ibsimNetFile(b.build()),
    routing: 'minhop',
    sockName: `collectors-counters-${process.pid}-${Math.random().toString(36).slice(2, 8)}`,
  });
}, 60_000);
afterAll(async () => {
  await lab?.stop();
});

/** The lab's subnet read by MADs, each read stamped `clock()` (the injected time), the real stamp kept. */
function clocked(resetCounters: boolean, clock: () => number) {
  const source = infinibandSource({ fabric: 'lab', env: lab.env, cwd: lab.cwd, resetCounters });
  const realStamps: number[] = [];
  const madsSent: number[] = [];
  const sw1 = { lid: 0, guid: '' };
  const wrapped: FabricSource = {
    name: source.name,
    async read(signal) {
      const snapshot = await source.read(signal);
      realStamps.push(snapshot.countersReadAtMs as number);
      madsSent.push(snapshot.mads?.sent ?? 0);
      // ibsim gives a switch a GUID of its own: found by its NodeDescription.
      const port = snapshot.ports.find((p) => p.nodeName === 'sw1');
      if (port) Object.assign(sw1, { lid: port.lid, guid: port.nodeGuid });
      // The injected time stands for every port's reading too (each carries its real instant).
      const ports = snapshot.ports.map(({ countersReadAtMs: _real, ...p }) => p);
      return { ...snapshot, ports, countersReadAtMs: clock() };
    },
  };
  const { scrape } = createFabricRegistry({ source: wrapped, timeoutMs: 25_000 });
  return {
    scrape: async () => samples(await scrape()),
    realStamps,
    madsSent,
    sw1,
    close: () => source.close(),
  };
}

/** What the PMA of sw1 port 2 holds in PortXmitWait now (0 after a clear). */
async function xmitWaitNow(lid: number): Promise<number> {
  const out = await run('perfquery', [String(lid), '2'], {
    env: { ...process.env, ...lab.env },
    cwd: lab.cwd,
  });
  return Number(parsePerfquery(out.stdout)[0]?.counters.PortXmitWait ?? Number.NaN);
}

/**
 * sw1 port 2 (towards hostB) waits a `share` of each second for `seconds` seconds: every second its
 * PortXmitWait climbs by share × ticks a second from what the PMA holds (a clear starts it from 0) and
 * saturates as hardware does; then the collector reads. Returns each read's exposition.
 */
async function congest(resets: boolean, share: number, seconds: number) {
  let now = 1_000_000;
  const c = clocked(resets, () => now);
  const reads: Sample[][] = [];
  try {
    reads.push(await c.scrape());
    const lid = c.sw1.lid;
    for (let s = 1; s <= seconds; s++) {
      now += 1000;
      const held = await xmitWaitNow(lid);
      const next = Math.min(WAIT_MAX, held + Math.round(share * TICKS_PER_SECOND));
      await lab.performanceSet('sw1', 2, 'PortCounters.PortXmitWait', next);
      reads.push(await c.scrape());
    }
  } finally {
    await c.close();
    await lab.performanceSet('sw1', 2, 'PortCounters.PortXmitWait', 0);
  }
  return { reads, realStamps: c.realStamps, toHostB: { node_guid: c.sw1.guid, port: '2' } };
}

describe('PortSamplesControl on ibsim', () => {
  it('is asked of the switch once; ibsim refuses it, so Tick is taken as 0 and every port is still read', async () => {
    let now = 500_000;
    const c = clocked(false, () => now);
    try {
      const first = await c.scrape();
      now += 1000;
      const second = await c.scrape();
      // Four cabled ports, their two counters' MADs each, once the LIDs' probes, the switch's PortSamplesControl
      // and every PortInfo are done (PortInfo again when it can have changed: none had).
      expect(c.madsSent[1]).toBe(8);
      expect(c.madsSent[0]).toBeGreaterThan(12);
      for (const list of [first, second]) {
        expect(value(list, 'fabscope_fabric_target_up', { target: c.sw1.guid })).toBe(1);
        // A 4x EDR tick of Tick 0: four bytes at 12.5 GB/s.
        expect(
          value(list, 'fabscope_port_transmit_wait_tick_seconds', { node_guid: c.sw1.guid, port: '2' }),
        ).toBe(4 / 12.5e9);
      }
    } finally {
      await c.close();
    }
  }, 60_000);
});

describe('PortXmitWait held saturated on a congested link (120 s)', () => {
  it('with clears on, the wait share stays within 5 % of what the port counts, every second', async () => {
    const share = 0.4;
    const { reads, toHostB } = await congest(true, share, 120);
    const shares = reads.slice(1).map((list) => value(list, EDGE.wait, toHostB));
    // Without clears the counter would stand saturated from its 4th second on.
    expect(shares).toHaveLength(120);
    for (const [s, w] of shares.entries()) {
      expect(w, `second ${s + 1}`).toBeDefined();
      expect(Math.abs((w as number) - share), `second ${s + 1}: ${w}`).toBeLessThanOrEqual(0.05 * share);
    }
    expect(reads.every((list) => find(list, EDGE.saturated).length === 0)).toBe(true);
  }, 240_000);

  it('with clears off, congestion reads unknown with the reason from the first saturated reading on', async () => {
    const share = 0.4;
    const { reads, realStamps, toHostB } = await congest(false, share, 30);
    // 0.4 × 3.125e9 ticks a second: the 32-bit counter is full in the 4th second.
    const first = reads.findIndex(
      (list) => find(list, EDGE.saturated, { ...toHostB, field: 'transmitWait' }).length,
    );
    expect(first).toBe(4);
    for (let s = 1; s < first; s++) {
      expect(value(reads[s] as Sample[], EDGE.wait, toHostB)).toBeCloseTo(share, 2);
    }
    for (let s = first; s < reads.length; s++) {
      const list = reads[s] as Sample[];
      // Unknown, never 0 and never the partial step to the ceiling; why, and since the first such read.
      expect(find(list, EDGE.wait, toHostB), `second ${s}`).toEqual([]);
      expect(find(list, 'fabscope_port_transmit_wait_total', toHostB)).toEqual([]);
      expect(value(list, EDGE.saturated, { ...toHostB, field: 'transmitWait' })).toBe(
        (realStamps[first] as number) / 1000,
      );
    }
  }, 120_000);
});

describe('narrow counters at their maximum, and counter steps', () => {
  const at = (list: Sample[], name: string, labels: Record<string, string>) => find(list, name, labels);

  it('counters of 4, 8, 16 and 32 bits held at their maximum read unknown from the first saturated reading', async () => {
    let now = 2_000_000;
    const c = clocked(false, () => now);
    const set = (field: string, v: number) => lab.performanceSet('sw1', 1, `PortCounters.${field}`, v);
    const WIDTHS = [
      [
        'LocalLinkIntegrityErrors',
        'localLinkIntegrityErrors',
        'fabscope_port_local_link_integrity_errors_total',
        4,
      ],
      ['LinkDownedCounter', 'linkDowned', 'fabscope_port_link_downed_total', 8],
      ['SymbolErrorCounter', 'symbolErrors', 'fabscope_port_symbol_error_total', 16],
      ['PortXmitWait', 'transmitWait', 'fabscope_port_transmit_wait_total', 32],
    ] as const;
    try {
      for (const [field, , , width] of WIDTHS) await set(field, 2 ** width - 3);
      await c.scrape();
      now += 1000;
      const below = await c.scrape();
      const sw1 = { node_guid: c.sw1.guid, port: '1' };
      for (const [, , family, width] of WIDTHS) expect(value(below, family, sw1)).toBe(2 ** width - 3);
      expect(at(below, EDGE.saturated, sw1)).toEqual([]);
      for (const [field, , , width] of WIDTHS) await set(field, 2 ** width - 1);
      const held: Sample[][] = [];
      for (let s = 0; s < 3; s++) {
        now += 1000;
        held.push(await c.scrape());
      }
      const firstSaturated = (c.realStamps[2] as number) / 1000;
      for (const [s, list] of held.entries()) {
        for (const [, name, family] of WIDTHS) {
          expect(at(list, family, sw1), `${name}, read ${s}`).toEqual([]);
          expect(value(list, EDGE.saturated, { ...sw1, field: name })).toBe(firstSaturated);
          if (name !== 'transmitWait')
            expect(value(list, EDGE.portErrors, { ...sw1, field: name })).toBeNaN();
        }
        expect(at(list, EDGE.wait, sw1)).toEqual([]);
      }
    } finally {
      await c.close();
      for (const [field] of WIDTHS) await set(field, 0);
    }
  }, 60_000);

  it('with clears on, error counters past half their width are cleared on ibsim and counted on', async () => {
    let now = 4_000_000;
    const c = clocked(true, () => now);
    const pma = async (lid: number) =>
      parsePerfquery(
        (await run('perfquery', [String(lid), '1'], { env: { ...process.env, ...lab.env }, cwd: lab.cwd }))
          .stdout,
      )[0]?.counters;
    try {
      await lab.performanceSet('sw1', 1, 'PortCounters.LinkDownedCounter', 200);
      await lab.performanceSet('sw1', 1, 'PortCounters.SymbolErrorCounter', 40_000);
      const first = await c.scrape();
      const sw1 = { node_guid: c.sw1.guid, port: '1' };
      expect(value(first, 'fabscope_port_link_downed_total', sw1)).toBe(200);
      expect(value(first, 'fabscope_port_symbol_error_total', sw1)).toBe(40_000);
      // Cleared right after that read: the PMA counts from 0 again.
      const held = await pma(c.sw1.lid);
      expect([held?.LinkDownedCounter, held?.SymbolErrorCounter]).toEqual([0n, 0n]);
      await lab.performanceSet('sw1', 1, 'PortCounters.LinkDownedCounter', 10);
      await lab.performanceSet('sw1', 1, 'PortCounters.SymbolErrorCounter', 5);
      now += 1000;
      const second = await c.scrape();
      expect(value(second, 'fabscope_port_link_downed_total', sw1)).toBe(210);
      expect(value(second, 'fabscope_port_symbol_error_total', sw1)).toBe(40_005);
      expect(value(second, EDGE.portErrors, { ...sw1, field: 'linkDowned' })).toBe(10);
    } finally {
      await c.close();
      await lab.performanceSet('sw1', 1, 'PortCounters.LinkDownedCounter', 0);
      await lab.performanceSet('sw1', 1, 'PortCounters.SymbolErrorCounter', 0);
    }
  }, 60_000);

  it('a packet counter stepped by 2^60 reads a gap, never a rate; the next read is a figure again', async () => {
    let now = 3_000_000;
    const c = clocked(false, () => now);
    try {
      await c.scrape();
      now += 1000;
      const before = await c.scrape();
      const sw1 = { node_guid: c.sw1.guid, port: '1' };
      const hostA = described(before).find((s) => s.labels.node_name === 'hostA')?.labels.node_guid as string;
      const packets = (family: string, labels: Record<string, string>) =>
        BigInt(value(before, family, labels) ?? 0);
      // Both ends of the direction sw1 → hostA step by 2^60: no end can give it a figure.
      const step = 2n ** 60n;
      const sent = packets('fabscope_port_packets_transmitted_total', sw1);
      const received = packets('fabscope_port_packets_received_total', { node_guid: hostA, port: '1' });
      await lab.performanceSet('sw1', 1, 'PortCountersExtended.PortXmitPkts', sent + step);
      await lab.performanceSet('hostA', 1, 'PortCountersExtended.PortRcvPkts', received + step);
      now += 1000;
      const stepped = await c.scrape();
      expect(at(stepped, EDGE.packets, sw1)).toEqual([]);
      expect(value(stepped, EDGE.bytes, sw1)).toBeGreaterThanOrEqual(0);
      now += 1000;
      const after = value(await c.scrape(), EDGE.packets, sw1);
      expect(after).toBeGreaterThanOrEqual(0);
      expect(after).toBeLessThan(1e6);
    } finally {
      await c.close();
    }
  }, 60_000);
});
