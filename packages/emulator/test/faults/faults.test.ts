import { fatTreeRouting as fatTreeTables, twoTierFatTree } from '@fabscope/topology';
import { describe, expect, it } from 'vitest';
import { createEmulator, DISCARD_GRACE_MS, type Emulator, TrafficError } from '../../src/index.ts';
import { arDemoEmulator, counter, EDGE1_TO_CORE2, SEED_PAIRS, singleSwitchEmulator } from '../helpers.ts';

const total = (e: Emulator) => e.listFlows().reduce((s, f) => s + f.bytesPerSecond, 0);
const BUSY_ISL = 'edge1/4--core2/1';

/** Every counter of every port, as numbers (to check they never go backwards). */
const snapshot = (e: Emulator) => e.portCounters().ports.map((p) => Object.values(p.counters).map(BigInt));

describe('faults: a link down on a busy ISL', () => {
  it('static routing loses the flows until the sweep (10 s), then routes round; LinkDowned counts', () => {
    const emulator = arDemoEmulator();
    emulator.startFlows({ pattern: 'pairs', pairs: SEED_PAIRS });
    const before = snapshot(emulator);
    const fault = emulator.injectFault({ type: 'link-down', link: BUSY_ISL });
    expect(fault).toMatchObject({ type: 'link-down', target: BUSY_ISL });
    expect(emulator.listFaults().map((f) => f.target)).toEqual([BUSY_ISL]);
    expect(total(emulator)).toBe(0);
    emulator.advance(9_999);
    expect(total(emulator)).toBe(0);
    emulator.advance(1);
    expect(emulator.listFlows().every((f) => f.path[1] === 'edge1/3->core1/1')).toBe(true);
    expect(total(emulator)).toBeCloseTo(12.375e9, -3);
    const doc = emulator.portCounters();
    expect(counter(doc, 'edge1', EDGE1_TO_CORE2, 'LinkDowned')).toBe(1n);
    expect(counter(doc, 'core2', 1, 'LinkDowned')).toBe(1n);
    expect(counter(doc, 'edge1', 3, 'LinkDowned')).toBe(0n);
    const after = snapshot(emulator);
    for (const [i, values] of after.entries()) {
      for (const [j, v] of values.entries()) expect(v).toBeGreaterThanOrEqual(before[i]?.[j] as bigint);
    }
    expect(emulator.listFlows().every((f) => f.bytesPerSecond >= 0)).toBe(true);
  });

  it('the sweep delay is configurable', () => {
    const fabric = arDemoEmulator().fabric;
    const emulator = createEmulator({ fabric, tables: fatTreeTables(fabric), sweepDelayMs: 2000 });
    emulator.startFlows({ pattern: 'pairs', pairs: SEED_PAIRS });
    emulator.injectFault({ type: 'link-down', node: 'edge1', port: EDGE1_TO_CORE2 });
    emulator.advance(1999);
    expect(total(emulator)).toBe(0);
    emulator.advance(1);
    expect(total(emulator)).toBeGreaterThan(12e9);
  });

  it('adaptive routing reroutes lost routes within its frequency, before the sweep', () => {
    const emulator = arDemoEmulator();
    emulator.startFlows({ pattern: 'pairs', pairs: SEED_PAIRS });
    emulator.setAdaptiveRouting({ enabled: true, lostRouteOnly: true, arFrequency: 2 }); // 256 ms
    emulator.advance(1000);
    emulator.injectFault({ type: 'link-down', link: BUSY_ISL });
    expect(total(emulator)).toBe(0);
    emulator.advance(256);
    expect(total(emulator)).toBeCloseTo(12.375e9, -3);
  });

  it('link-up brings the static routes back after the next sweep', () => {
    const emulator = arDemoEmulator();
    const stat = emulator.startFlows({ pattern: 'pairs', pairs: SEED_PAIRS }).map((f) => f.path.join());
    emulator.injectFault({ type: 'link-down', link: BUSY_ISL });
    emulator.advance(10_000);
    emulator.injectFault({ type: 'link-up', link: BUSY_ISL });
    expect(emulator.listFaults()).toEqual([]);
    emulator.advance(10_000);
    expect(emulator.listFlows().map((f) => f.path.join())).toEqual(stat);
  });
});

describe('faults: flapping, symbol errors, switches, restarts and clears', () => {
  it('a flapping link counts LinkDowned once per cycle and LinkErrorRecovery on each retrain', () => {
    const emulator = arDemoEmulator();
    emulator.injectFault({ type: 'flap', link: BUSY_ISL, period: 2, downFor: '500ms' });
    emulator.advance(5_900); // downs at 0, 2, 4 s; ups at 0.5, 2.5, 4.5 s
    const doc = emulator.portCounters();
    expect(counter(doc, 'edge1', EDGE1_TO_CORE2, 'LinkDowned')).toBe(3n);
    expect(counter(doc, 'core2', 1, 'LinkErrorRecovery')).toBe(3n);
    expect(emulator.listFaults()[0]).toMatchObject({ type: 'flap', period: 2, downFor: 0.5 });
    emulator.clearFaults();
    emulator.advance(10_000);
    expect(counter(emulator.portCounters(), 'edge1', EDGE1_TO_CORE2, 'LinkDowned')).toBe(3n);
  });

  it('symbol errors accrue at their rate; busy ports also see RcvErrors', () => {
    const emulator = arDemoEmulator();
    emulator.startFlows({ pattern: 'pairs', pairs: [['nodeA', 'nodeC']] });
    emulator.injectFault({ type: 'symbol-errors', link: BUSY_ISL, rate: 100 });
    emulator.advance(10_000);
    const doc = emulator.portCounters();
    expect(counter(doc, 'core2', 1, 'SymbolErrors')).toBe(1000n);
    expect(counter(doc, 'edge1', EDGE1_TO_CORE2, 'SymbolErrors')).toBe(1000n);
    // core2/1 receives nodeA→nodeC, its wire busy all the time; edge1/4 receives nothing.
    expect(counter(doc, 'core2', 1, 'RcvErrors')).toBe(1000n);
    expect(counter(doc, 'edge1', EDGE1_TO_CORE2, 'RcvErrors')).toBe(0n);
    expect(counter(doc, 'core2', 1, 'LinkErrorRecovery')).toBe(1n);
    emulator.injectFault({ type: 'symbol-errors', link: BUSY_ISL, rate: 0 });
    emulator.advance(10_000);
    expect(counter(emulator.portCounters(), 'core2', 1, 'SymbolErrors')).toBe(1000n);
  });

  it('reports each sweep of its fabric manager (GET /v1/routing): count, engine, links routed around', () => {
    const emulator = arDemoEmulator();
    expect(emulator.routingState()).toEqual({ sweep: 0, engine: 'fattree', downLinks: [], sweptAtMs: null });
    emulator.injectFault({ type: 'link-down', link: 'edge1/4--core2/1' });
    emulator.advance(emulator.sweepDelayMs - 1);
    expect(emulator.routingState().sweep).toBe(0);
    emulator.advance(1);
    expect(emulator.routingState()).toEqual({
      sweep: 1,
      engine: 'minhop-fallback',
      downLinks: ['edge1/4--core2/1'],
      sweptAtMs: emulator.sweepDelayMs,
    });
    emulator.clearFaults();
    emulator.advance(emulator.sweepDelayMs);
    expect(emulator.routingState()).toMatchObject({ sweep: 2, engine: 'fattree', downLinks: [] });
  });

  it('repairing everything stops symbol errors and the receive errors and retrains they cause', () => {
    const emulator = arDemoEmulator();
    emulator.startFlows({ pattern: 'pairs', pairs: [['nodeA', 'nodeC']] });
    emulator.injectFault({ type: 'symbol-errors', link: BUSY_ISL, rate: 100 });
    emulator.advance(10_000);
    emulator.clearFaults();
    const read = () =>
      (['SymbolErrors', 'RcvErrors', 'LinkErrorRecovery'] as const).map((name) =>
        counter(emulator.portCounters(), 'core2', 1, name),
      );
    const repaired = read();
    expect(repaired).toEqual([1000n, 1000n, 1n]);
    emulator.advance(10_000);
    expect(read()).toEqual(repaired);
  });

  it('a switch down takes its links with it; back up, its counters start again from 0', () => {
    const emulator = arDemoEmulator();
    emulator.startFlows({ pattern: 'pairs', pairs: [['nodeA', 'nodeC']] });
    emulator.advance(1000);
    expect(counter(emulator.portCounters(), 'core2', 1, 'RcvData')).toBeGreaterThan(0n);
    emulator.injectFault({ type: 'switch-down', node: 'core2' });
    expect(total(emulator)).toBe(0);
    const doc = emulator.portCounters();
    expect(doc.ports.filter((p) => p.linkState === 'down')).toHaveLength(4);
    expect(counter(doc, 'edge1', EDGE1_TO_CORE2, 'LinkDowned')).toBe(1n);
    emulator.injectFault({ type: 'switch-up', node: 'core2' });
    expect(counter(emulator.portCounters(), 'core2', 1, 'RcvData')).toBe(0n);
    expect(() => emulator.injectFault({ type: 'switch-down', node: 'nodeA' })).toThrow(/not a switch/);
  });

  it('a restart and a clear by another tool both send counters back to 0', () => {
    const emulator = arDemoEmulator();
    emulator.startFlows({ pattern: 'pairs', pairs: [['nodeA', 'nodeC']] });
    emulator.advance(1000);
    emulator.injectFault({ type: 'restart', node: 'nodeA' });
    let doc = emulator.portCounters();
    expect(counter(doc, 'nodeA', 1, 'XmitData')).toBe(0n);
    expect(counter(doc, 'edge1', 1, 'RcvData')).toBeGreaterThan(0n); // the other end keeps counting
    emulator.advance(1000);
    expect(counter(emulator.portCounters(), 'nodeA', 1, 'XmitData')).toBe(BigInt(12.375e9 / 8));
    emulator.injectFault({ type: 'clear-counters', node: 'edge1', port: 1 });
    doc = emulator.portCounters();
    expect(counter(doc, 'edge1', 1, 'RcvData')).toBe(0n);
    expect(counter(doc, 'nodeA', 1, 'XmitData')).toBe(BigInt(12.375e9 / 8));
  });

  it('a port that stays oversubscribed discards packets after the HoQ grace time', () => {
    const emulator = singleSwitchEmulator();
    emulator.startFlows({ pattern: 'incast', to: 'node01' });
    emulator.advance(DISCARD_GRACE_MS);
    expect(counter(emulator.portCounters(), 'switch1', 1, 'XmitDiscards')).toBe(0n);
    emulator.advance(10_000);
    expect(counter(emulator.portCounters(), 'switch1', 1, 'XmitDiscards')).toBeGreaterThan(0n);
    expect(counter(emulator.portCounters(), 'switch1', 2, 'XmitDiscards')).toBe(0n);
  });

  it('refuses bad faults with a reason', () => {
    const emulator = arDemoEmulator();
    expect(() => emulator.injectFault({ type: 'melt' })).toThrow(TrafficError);
    expect(() => emulator.injectFault({ type: 'link-down', link: 'x--y' })).toThrow(/unknown link/);
    expect(() => emulator.injectFault({ type: 'link-down', node: 'nodeA', port: 2 })).toThrow(/not cabled/);
    expect(() => emulator.injectFault({ type: 'symbol-errors', link: BUSY_ISL, rate: -1 })).toThrow(/rate/);
    expect(() => emulator.injectFault({ type: 'flap', link: BUSY_ISL, period: 1, downFor: 2 })).toThrow(
      /downFor/,
    );
  });
});

describe('faults: the error counters of the PM categories', () => {
  it.each([
    ['link-integrity', 'LocalLinkIntegrityErrors'],
    ['constraint-errors', 'RcvConstraintErrors'],
    ['switch-relay-errors', 'RcvSwitchRelayErrors'],
    ['buffer-overruns', 'ExcessiveBufferOverruns'],
    ['uncorrectable-errors', 'UncorrectableErrors'],
  ] as const)('%s raises %s at its rate on both ends, only while the link is up', (type, name) => {
    const emulator = arDemoEmulator();
    emulator.injectFault({ type, link: BUSY_ISL, rate: 50 });
    emulator.advance(2000);
    let doc = emulator.portCounters();
    expect(counter(doc, 'edge1', EDGE1_TO_CORE2, name)).toBe(100n);
    expect(counter(doc, 'core2', 1, name)).toBe(100n);
    expect(counter(doc, 'edge1', 3, name)).toBe(0n);
    expect(emulator.listFaults()).toMatchObject([{ type, target: BUSY_ISL, rate: 50 }]);
    emulator.injectFault({ type: 'link-down', link: BUSY_ISL });
    emulator.advance(2000);
    doc = emulator.portCounters();
    expect(counter(doc, 'edge1', EDGE1_TO_CORE2, name)).toBe(100n);
    emulator.clearFaults();
    expect(emulator.listFaults()).toEqual([]);
  });

  it('vl15-drops counts VL15Dropped on an InfiniBand port; an Omni-Path port has no such counter', () => {
    const ib = twoTierFatTree({
      name: 'ib',
      fabricType: 'infiniband',
      radix: 8,
      edgeCount: 2,
      coreCount: 2,
      hostsPerEdge: 2,
    });
    const emulator = createEmulator({ fabric: ib, tables: fatTreeTables(ib) });
    const isl = ib.links.find((l) => l.kind === 'isl');
    if (!isl) throw new Error('no ISL');
    emulator.injectFault({ type: 'vl15-drops', node: isl.a.node, port: isl.a.port, rate: 10 });
    emulator.advance(1000);
    const doc = emulator.portCounters();
    expect(counter(doc, isl.a.node, isl.a.port, 'VL15Dropped')).toBe(10n);
    expect(counter(doc, isl.b.node, isl.b.port, 'VL15Dropped')).toBe(0n);
    // InfiniBand has no FM config errors or link quality indicator: absent, never 0.
    const port = doc.ports.find((p) => p.nodeName === isl.a.node && p.portNumber === isl.a.port);
    expect(port?.counters.FMConfigErrors).toBeUndefined();
    expect(port?.counters.LinkQualityIndicator).toBeUndefined();
    const opa = arDemoEmulator().portCounters().ports[0];
    expect(opa?.counters.VL15Dropped).toBeUndefined();
  });

  it('symbol errors lower the LinkQualityIndicator; link-quality and link-width-downgrade set the gauges', () => {
    const emulator = arDemoEmulator();
    const lqi = () => counter(emulator.portCounters(), 'edge1', EDGE1_TO_CORE2, 'LinkQualityIndicator');
    expect(lqi()).toBe(5n);
    emulator.injectFault({ type: 'symbol-errors', link: BUSY_ISL, rate: 1000 });
    expect(lqi()).toBe(2n);
    emulator.injectFault({ type: 'link-quality', node: 'edge1', port: EDGE1_TO_CORE2, quality: 1 });
    expect(lqi()).toBe(1n);
    emulator.injectFault({ type: 'link-width-downgrade', link: BUSY_ISL, lanes: 2 });
    expect(counter(emulator.portCounters(), 'core2', 1, 'LinkWidthDowngrade')).toBe(2n);
    // Gauges are not counters: a clear by another tool leaves them as they are.
    emulator.injectFault({ type: 'clear-counters', node: 'edge1', port: EDGE1_TO_CORE2 });
    expect(lqi()).toBe(1n);
    emulator.clearFaults();
    expect(lqi()).toBe(5n);
    expect(() => emulator.injectFault({ type: 'link-quality', link: BUSY_ISL, quality: 6 })).toThrow(
      /quality must be an integer 0..5/,
    );
    expect(() => emulator.injectFault({ type: 'link-width-downgrade', link: BUSY_ISL, lanes: 4 })).toThrow(
      /lanes must be an integer 0..3/,
    );
  });
});
