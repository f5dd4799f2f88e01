import { buildScenario, fatTreeRouting } from '@fabscope/topology';
import { describe, expect, it } from 'vitest';
import { createEmulator, TrafficError } from '../src/index.ts';
import {
  arDemoEmulator,
  counter,
  EDGE1_TO_CORE1,
  EDGE1_TO_CORE2,
  measuredTxRate,
  SEED_PAIRS,
} from './helpers.ts';

describe('emulator: seed 002 with static routing', () => {
  it('runs one pair alone at 99 % of line rate (12.375 GB/s)', () => {
    const emulator = arDemoEmulator();
    const [flow] = emulator.startFlows({ pattern: 'pairs', pairs: [['nodeA', 'nodeC']] });
    expect(flow?.bytesPerSecond).toBe(12.375e9);
    expect(flow?.path).toEqual([
      'nodeA/1->edge1/1',
      'edge1/4->core2/1',
      'core2/2->edge2/4',
      'edge2/1->nodeC/1',
    ]);
    const rate = measuredTxRate(emulator, 'nodeA', 1, 10_000);
    expect(rate).toBeGreaterThanOrEqual(12.2e9);
    expect(rate).toBeLessThanOrEqual(12.5e9);
    expect(counter(emulator.portCounters(), 'nodeA', 1, 'XmitWait')).toBe(0n);
  });

  it('shares the edge1→core2 ISL between two pairs and leaves edge1→core1 idle', () => {
    const emulator = arDemoEmulator();
    const flows = emulator.startFlows({ pattern: 'pairs', pairs: SEED_PAIRS });
    const total = flows.reduce((sum, f) => sum + f.bytesPerSecond, 0);
    expect(total).toBeGreaterThanOrEqual(12.0e9);
    expect(total).toBeLessThanOrEqual(13.0e9);
    for (const flow of flows) expect(flow.bytesPerSecond).toBeCloseTo(6.1875e9, -3);
    for (const flow of flows) expect(flow.path).toContain('edge1/4->core2/1');

    const isl = measuredTxRate(emulator, 'edge1', EDGE1_TO_CORE2, 1000);
    expect(isl / 12.5e9).toBeGreaterThanOrEqual(0.95);
    expect(measuredTxRate(emulator, 'edge1', EDGE1_TO_CORE1, 1000)).toBe(0);
    // opatop's view: hosts at 50 %.
    expect(measuredTxRate(emulator, 'nodeA', 1, 1000) / 12.5e9).toBeCloseTo(0.495, 3);
  });

  it('counts XmitWait on the congested ISL and the hosts held back behind it, nowhere else', () => {
    const emulator = arDemoEmulator();
    emulator.startFlows({ pattern: 'pairs', pairs: SEED_PAIRS });
    const before = emulator.portCounters();
    emulator.advance(1000);
    const after = emulator.portCounters();
    const grew = (node: string, port: number) =>
      counter(after, node, port, 'XmitWait') - counter(before, node, port, 'XmitWait');
    expect(grew('edge1', EDGE1_TO_CORE2)).toBeGreaterThan(0n);
    expect(grew('nodeA', 1)).toBeGreaterThan(0n);
    expect(grew('nodeB', 1)).toBeGreaterThan(0n);
    expect(grew('edge1', EDGE1_TO_CORE1)).toBe(0n);
    expect(grew('core2', 2)).toBe(0n);
    expect(grew('edge2', 1)).toBe(0n);
    expect(grew('nodeC', 1)).toBe(0n);
    // Half the time waiting, in flit times at 100 Gb/s: 0.5 × 1.5625e9 per second.
    expect(grew('edge1', EDGE1_TO_CORE2)).toBe(781_250_000n);
  });
});

describe('emulator: traffic requests', () => {
  const emulator = arDemoEmulator();
  const start = (pairs: unknown) => () => emulator.startFlows({ pattern: 'pairs', pairs } as never);

  it('names an unknown node', () => {
    expect(start([['nodeA', 'nodeZ']])).toThrow(TrafficError);
    expect(start([['nodeA', 'nodeZ']])).toThrow(/unknown node "nodeZ"/);
  });

  it('refuses a host paired with itself, an empty list, a switch, a malformed pair or pattern', () => {
    expect(start([['nodeA', 'nodeA']])).toThrow(/"nodeA" cannot send to itself/);
    expect(start([])).toThrow(/pairs is empty/);
    expect(start([['nodeA', 'edge1']])).toThrow(/"edge1" is a switch/);
    expect(start([['nodeA']])).toThrow(/pairs\[0\] must be \[from, to\]/);
    expect(() => emulator.startFlows({ pattern: 'storm' } as never)).toThrow(/unknown pattern "storm"/);
  });

  it('starts nothing when one pair of several is invalid', () => {
    expect(start([...SEED_PAIRS, ['nodeC', 'nodeX']])).toThrow(/nodeX/);
    expect(emulator.listFlows()).toEqual([]);
  });

  it('lists, numbers and stops flows', () => {
    const started = emulator.startFlows({ pattern: 'pairs', pairs: SEED_PAIRS });
    expect(started.map((f) => [f.id, f.from, f.to])).toEqual([
      ['f1', 'nodeA', 'nodeC'],
      ['f2', 'nodeB', 'nodeD'],
    ]);
    expect(emulator.listFlows()).toEqual(started);
    emulator.stopAllFlows();
    expect(emulator.listFlows()).toEqual([]);
    emulator.advance(100);
    const idle = emulator.portCounters();
    emulator.advance(1000);
    expect(emulator.portCounters().ports.map((p) => p.counters)).toEqual(idle.ports.map((p) => p.counters));
  });

  it('refuses a bad clock step', () => {
    expect(() => emulator.advance(-1)).toThrow(RangeError);
    expect(() => emulator.advance(Number.NaN)).toThrow(RangeError);
  });
});

describe('emulator: fat-tree-1152', () => {
  const fabric = buildScenario('fat-tree-1152');
  const tables = fatTreeRouting(fabric);
  const hosts = fabric.nodes.filter((n) => n.type === 'host').map((n) => n.name);
  // A shift permutation: every host sends to the same position on the next edge switch.
  const pairs = hosts.map((h, i): [string, string] => [h, hosts[(i + 24) % hosts.length] as string]);

  it('runs a shift permutation at full rate under D-mod-K (non-blocking)', () => {
    const emulator = createEmulator({ fabric, tables });
    const flows = emulator.startFlows({ pattern: 'pairs', pairs });
    expect(flows).toHaveLength(1152);
    expect(flows.every((f) => f.bytesPerSecond === 12.375e9)).toBe(true);
  });
});
