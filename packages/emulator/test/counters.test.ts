import { FabricBuilder, fatTreeRouting } from '@fabscope/topology';
import { describe, expect, it } from 'vitest';
import {
  Accumulator,
  createEmulator,
  PACKET_PAYLOAD_BYTES,
  type PortCountersDocument,
} from '../src/index.ts';
import { arDemoEmulator, counter, SEED_PAIRS } from './helpers.ts';

const values = (doc: PortCountersDocument) =>
  doc.ports.map((p) => Object.values(p.counters).map((v) => BigInt(v)));

describe('Accumulator', () => {
  it('carries fractions so the total is exact over many small steps', () => {
    const counters = new Accumulator(1);
    // 1/3 byte per ms for 3000 steps of 1 ms: 1000 bytes exactly, not 0 (floor each step) or 999.
    for (let i = 0; i < 3000; i++) counters.accrue([0], [1000 / 3], 1);
    expect(counters.totals[0]).toBe(1000n);
    const odd = new Accumulator(1);
    for (let i = 0; i < 1000; i++) odd.accrue([0], [12.375e9], 7);
    expect(odd.totals[0]).toBe(86_625_000_000n); // 12.375e9 B/s × 7 s
  });

  it('keeps 64-bit totals beyond 2^53, wrapping at 2^64', () => {
    const counters = new Accumulator(1);
    counters.accrue([0], [2 ** 52], 1000);
    counters.accrue([0], [2 ** 52], 1000);
    counters.accrue([0], [3], 1000);
    expect(counters.totals[0]).toBe(2n ** 53n + 3n);
    counters.add(0, 2n ** 64n - 2n ** 53n);
    expect(counters.totals[0]).toBe(3n);
  });
});

describe('port counters', () => {
  it('lists every cabled port with the documented shape', () => {
    const doc = arDemoEmulator().portCounters();
    expect(doc).toMatchObject({ fabric: 'ar-demo', fabricType: 'omnipath', timeMs: 0, dataUnitBytes: 8 });
    expect(doc.ports).toHaveLength(16); // 4 host links and 4 ISLs, two ends each
    const isl = doc.ports.find((p) => p.nodeName === 'edge1' && p.portNumber === 4);
    expect(isl).toEqual({
      nodeGuid: expect.stringMatching(/^0x[0-9a-f]{16}$/),
      nodeName: 'edge1',
      nodeType: 'switch',
      portNumber: 4,
      lid: 6,
      rateGbps: 100,
      linkState: 'active',
      fabricType: 'omnipath',
      remote: { nodeGuid: expect.stringMatching(/^0x/), nodeName: 'core2', portNumber: 1 },
      counters: {
        XmitData: '0',
        RcvData: '0',
        XmitPkts: '0',
        RcvPkts: '0',
        XmitWait: '0',
        SymbolErrors: '0',
        LinkErrorRecovery: '0',
        LinkDowned: '0',
        RcvErrors: '0',
        XmitDiscards: '0',
        RcvRemotePhysicalErrors: '0',
        RcvSwitchRelayErrors: '0',
        XmitConstraintErrors: '0',
        RcvConstraintErrors: '0',
        LocalLinkIntegrityErrors: '0',
        ExcessiveBufferOverruns: '0',
        UncorrectableErrors: '0',
        FMConfigErrors: '0',
        LinkQualityIndicator: '5',
        LinkWidthDowngrade: '0',
      },
    });
  });

  it('counts Omni-Path flits (bytes / 8) and 8 KiB packets, equal at both ends of a link', () => {
    const emulator = arDemoEmulator();
    emulator.startFlows({ pattern: 'pairs', pairs: [['nodeA', 'nodeC']] });
    emulator.advance(2000);
    const doc = emulator.portCounters();
    const bytes = 12.375e9 * 2;
    expect(counter(doc, 'nodeA', 1, 'XmitData')).toBe(BigInt(bytes / 8));
    expect(counter(doc, 'nodeA', 1, 'XmitPkts')).toBe(
      BigInt(Math.floor(bytes / PACKET_PAYLOAD_BYTES.omnipath)),
    );
    expect(counter(doc, 'edge1', 1, 'RcvData')).toBe(counter(doc, 'nodeA', 1, 'XmitData'));
    expect(counter(doc, 'nodeC', 1, 'RcvData')).toBe(counter(doc, 'nodeA', 1, 'XmitData'));
    expect(counter(doc, 'nodeC', 1, 'RcvPkts')).toBe(counter(doc, 'nodeA', 1, 'XmitPkts'));
    expect(counter(doc, 'nodeA', 1, 'RcvData')).toBe(0n);
  });

  it('counts InfiniBand in 4-octet words and Ethernet in bytes', () => {
    for (const [fabricType, unit] of [
      ['infiniband', 4],
      ['ethernet', 1],
    ] as const) {
      const builder = new FabricBuilder(`pair-${fabricType}`, fabricType);
      builder.addNode({ name: 'sw', type: 'switch', guid: '0x0000000000000001', portCount: 4, tier: 1 });
      builder.addNode({ name: 'h1', type: 'host', guid: '0x0000000000000002', portCount: 1 });
      builder.addNode({ name: 'h2', type: 'host', guid: '0x0000000000000003', portCount: 1 });
      builder.connect('h1', 1, 'sw', 1, 200);
      builder.connect('h2', 1, 'sw', 2, 200);
      const fabric = builder.build();
      const emulator = createEmulator({ fabric, tables: fatTreeRouting(fabric) });
      emulator.startFlows({ pattern: 'pairs', pairs: [['h1', 'h2']] });
      emulator.advance(1000);
      const doc = emulator.portCounters();
      expect(doc.dataUnitBytes).toBe(unit);
      expect(counter(doc, 'h1', 1, 'XmitData')).toBe(BigInt((25e9 * 0.99) / unit));
    }
  });

  it('only ever grows, at every port and counter', () => {
    const emulator = arDemoEmulator();
    emulator.startFlows({ pattern: 'pairs', pairs: SEED_PAIRS });
    let previous = values(emulator.portCounters());
    const steps = [33, 64, 1, 250, 100, 7];
    for (let i = 0; i < 60; i++) {
      if (i === 20) emulator.setAdaptiveRouting({ enabled: true });
      if (i === 40) emulator.stopAllFlows();
      emulator.advance(steps[i % steps.length] as number);
      const now = values(emulator.portCounters());
      now.forEach((port, p) => {
        port.forEach((v, k) => {
          expect(v).toBeGreaterThanOrEqual(previous[p]?.[k] as bigint);
        });
      });
      previous = now;
    }
  });

  it('is deterministic: same seed, same steps, same counters', () => {
    const run = () => {
      const emulator = arDemoEmulator(7);
      emulator.startFlows({ pattern: 'pairs', pairs: SEED_PAIRS });
      emulator.setAdaptiveRouting({ enabled: true, algorithm: 0 });
      for (let i = 0; i < 50; i++) emulator.advance(37);
      return emulator.portCounters();
    };
    expect(run()).toEqual(run());
  });
});
