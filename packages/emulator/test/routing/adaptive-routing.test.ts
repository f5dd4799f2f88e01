import { buildScenario, fatTreeRouting } from '@fabscope/topology';
import { describe, expect, it } from 'vitest';
import {
  AdaptiveRoutingConfigError,
  adjustmentIntervalMs,
  applyAdaptiveRoutingPatch,
  createEmulator,
  DEFAULT_ADAPTIVE_ROUTING,
  type Emulator,
  thresholdLoad,
} from '../../src/index.ts';
import { arDemoEmulator, counter, EDGE1_TO_CORE1, EDGE1_TO_CORE2, SEED_PAIRS } from '../helpers.ts';

const paths = (emulator: Emulator) => emulator.listFlows().map((f) => f.path.join(' '));
const total = (emulator: Emulator) => emulator.listFlows().reduce((sum, f) => sum + f.bytesPerSecond, 0);

describe('adaptive routing parameters', () => {
  it("defaults to the seed's opafm.xml with Enable 0", () => {
    expect(arDemoEmulator().getAdaptiveRouting()).toEqual({
      enabled: false,
      lostRouteOnly: false,
      algorithm: 2,
      arFrequency: 0,
      threshold: 7,
    });
    expect(DEFAULT_ADAPTIVE_ROUTING.threshold).toBe(7);
  });

  it('maps Threshold and ARFrequency as opafm documents them', () => {
    expect([0, 1, 2, 3, 4, 5, 6, 7].map(thresholdLoad)).toEqual([1, 1, 0.9, 0.8, 0.7, 0.65, 0.6, 0.55]);
    expect(adjustmentIntervalMs(0)).toBe(64);
    expect(adjustmentIntervalMs(4)).toBe(1024);
    expect(adjustmentIntervalMs(7)).toBe(8192);
  });

  it('refuses invalid values with a precise message and keeps the old state', () => {
    const emulator = arDemoEmulator();
    const set = (patch: unknown) => () => emulator.setAdaptiveRouting(patch as never);
    expect(set({ threshold: 9 })).toThrow(AdaptiveRoutingConfigError);
    expect(set({ threshold: 9 })).toThrow('threshold must be an integer 0..7, got 9');
    expect(set({ threshold: 2.5 })).toThrow('threshold must be an integer 0..7, got 2.5');
    expect(set({ arFrequency: 8 })).toThrow('arFrequency must be an integer 0..7, got 8');
    expect(set({ algorithm: 3 })).toThrow('algorithm must be an integer 0..2, got 3');
    expect(set({ enabled: 'yes' })).toThrow('enabled must be true, false, 1 or 0, got "yes"');
    expect(set({ lostRoute: true })).toThrow(/unknown adaptive routing setting "lostRoute"/);
    expect(set(null)).toThrow(/must be a JSON object/);
    expect(set({ enabled: true, threshold: 9 })).toThrow(/threshold/);
    expect(emulator.getAdaptiveRouting()).toEqual(DEFAULT_ADAPTIVE_ROUTING);
  });

  it('applies a subset and answers with the whole state', () => {
    const next = applyAdaptiveRoutingPatch(DEFAULT_ADAPTIVE_ROUTING, { enabled: 1, algorithm: 1 });
    expect(next).toEqual({ ...DEFAULT_ADAPTIVE_ROUTING, enabled: true, algorithm: 1 });
  });
});

describe('adaptive routing on seed 002', () => {
  it('balances the two pairs over both cores: ~24.7 GB/s, both ISLs from edge1 full', () => {
    const emulator = arDemoEmulator();
    emulator.startFlows({ pattern: 'pairs', pairs: SEED_PAIRS });
    emulator.setAdaptiveRouting({ enabled: true, threshold: 7, arFrequency: 0 });
    emulator.advance(1000);
    expect(total(emulator)).toBeGreaterThanOrEqual(24.2e9);
    expect(total(emulator)).toBeLessThanOrEqual(25.0e9);
    const before = emulator.portCounters();
    emulator.advance(1000);
    const after = emulator.portCounters();
    for (const port of [EDGE1_TO_CORE1, EDGE1_TO_CORE2]) {
      const flits = counter(after, 'edge1', port, 'XmitData') - counter(before, 'edge1', port, 'XmitData');
      expect((Number(flits) * 8) / 12.5e9).toBeGreaterThanOrEqual(0.95);
    }
    const cores = emulator.listFlows().map((f) => f.path[1]);
    expect(new Set(cores)).toEqual(new Set(['edge1/3->core1/1', 'edge1/4->core2/1']));
  });

  it('does not oscillate: over 60 s of steady load no flow changes path', () => {
    const emulator = arDemoEmulator();
    emulator.startFlows({ pattern: 'pairs', pairs: SEED_PAIRS });
    emulator.setAdaptiveRouting({ enabled: true });
    emulator.advance(1000);
    const settled = paths(emulator);
    for (let t = 0; t < 60_000; t += 64) {
      emulator.advance(64);
      expect(paths(emulator)).toEqual(settled);
    }
  });

  it('waits ARFrequency: with 4 (1024 ms) nothing moves before 1024 ms after enabling', () => {
    const emulator = arDemoEmulator();
    emulator.startFlows({ pattern: 'pairs', pairs: SEED_PAIRS });
    emulator.advance(500);
    const stat = paths(emulator);
    emulator.setAdaptiveRouting({ enabled: true, arFrequency: 4 });
    emulator.advance(1023);
    expect(paths(emulator)).toEqual(stat);
    expect(total(emulator)).toBeLessThan(13e9);
    emulator.advance(1);
    expect(paths(emulator)).not.toEqual(stat);
    expect(total(emulator)).toBeGreaterThan(24e9);
  });

  it('does nothing while disabled, and returns flows to their static routes when turned off', () => {
    const emulator = arDemoEmulator();
    const stat = emulator.startFlows({ pattern: 'pairs', pairs: SEED_PAIRS }).map((f) => f.path.join(' '));
    emulator.advance(5000);
    expect(paths(emulator)).toEqual(stat);
    emulator.setAdaptiveRouting({ enabled: true });
    emulator.advance(100);
    expect(paths(emulator)).not.toEqual(stat);
    emulator.setAdaptiveRouting({ enabled: false });
    expect(paths(emulator)).toEqual(stat);
    expect(total(emulator)).toBeLessThan(13e9);
  });

  it('leaves ISLs below the threshold alone', () => {
    // One pair loads edge1→core2 to 100 %, but no other flow shares it: moving it cannot improve.
    const emulator = arDemoEmulator();
    const [flow] = emulator.startFlows({ pattern: 'pairs', pairs: [['nodeA', 'nodeC']] });
    emulator.setAdaptiveRouting({ enabled: true, threshold: 7 });
    emulator.advance(5000);
    expect(emulator.listFlows()[0]?.path).toEqual(flow?.path);
  });

  it('moves flows only for lost routes when lostRouteOnly is set', () => {
    const emulator = arDemoEmulator();
    const stat = emulator.startFlows({ pattern: 'pairs', pairs: SEED_PAIRS }).map((f) => f.path.join(' '));
    emulator.setAdaptiveRouting({ enabled: true, lostRouteOnly: true });
    emulator.advance(2000);
    expect(paths(emulator)).toEqual(stat);
    // The core2→edge2 link fails: both flows are lost; edge1 is the last switch with a way round.
    emulator.setLinkState('edge2/4--core2/2', 'down');
    expect(total(emulator)).toBe(0);
    emulator.advance(64);
    expect(emulator.listFlows().every((f) => f.path[1] === 'edge1/3->core1/1')).toBe(true);
    expect(total(emulator)).toBeCloseTo(12.375e9, -3);
    const doc = emulator.portCounters();
    const down = doc.ports.filter((p) => p.linkState === 'down').map((p) => `${p.nodeName}/${p.portNumber}`);
    expect(down.sort()).toEqual(['core2/2', 'edge2/4']);
  });

  it('is deterministic for a seed with every algorithm on a large fabric', () => {
    const fabric = buildScenario('fat-tree-1152');
    const tables = fatTreeRouting(fabric);
    const hosts = fabric.nodes.filter((n) => n.type === 'host').map((n) => n.name);
    // Twelve hosts of each edge send to hosts at the same position on twelve other edges: equal
    // LIDs mod 24, so D-mod-K sends all twelve through one up-port and AR has work to do.
    const pairs: [string, string][] = [];
    for (let e = 0; e < 48; e++) {
      for (let h = 0; h < 12; h++) {
        pairs.push([hosts[e * 24 + h] as string, hosts[((e + 1 + h) % 48) * 24 + (e % 24)] as string]);
      }
    }
    const stat = createEmulator({ fabric, tables }).startFlows({ pattern: 'pairs', pairs });
    const staticTotal = stat.reduce((sum, f) => sum + f.bytesPerSecond, 0);
    const run = (algorithm: 0 | 1 | 2, seed: number) => {
      const emulator = createEmulator({ fabric, tables, seed });
      emulator.startFlows({ pattern: 'pairs', pairs });
      emulator.setAdaptiveRouting({ enabled: true, algorithm });
      emulator.advance(640);
      return { paths: paths(emulator), total: total(emulator) };
    };
    for (const algorithm of [0, 1, 2] as const) {
      const a = run(algorithm, 42);
      expect(run(algorithm, 42)).toEqual(a);
      expect(a.total).toBeGreaterThan(staticTotal * 5);
    }
  });
});
