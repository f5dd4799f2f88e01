import { describe, expect, it } from 'vitest';
import {
  adaptivePaths,
  analyzeContention,
  analyzeFlows,
  buildForwardingTables,
  buildScenario,
  fabricGraph,
  fatTreeRouting,
  maxMinFair,
  PatternError,
  parsePattern,
  patternFlows,
  traceChannels,
} from '../src/index.ts';

describe('traffic patterns', () => {
  it.each([
    [
      'pairs:nodeA-nodeC,nodeB->nodeD',
      {
        kind: 'pairs',
        pairs: [
          ['nodeA', 'nodeC'],
          ['nodeB', 'nodeD'],
        ],
      },
    ],
    ['shift:24', { kind: 'shift', k: 24 }],
    ['permutation', { kind: 'permutation', seed: 1 }],
    ['permutation:7', { kind: 'permutation', seed: 7 }],
    ['all-to-all', { kind: 'all-to-all' }],
    ['incast:nodeA', { kind: 'incast', host: 'nodeA' }],
    ['bisection', { kind: 'bisection' }],
  ])('parses %s', (text, pattern) => {
    expect(parsePattern(text)).toEqual(pattern);
  });

  it.each([
    ['storm', /unknown pattern "storm"/],
    ['shift:0', /positive integer/],
    ['shift:x', /positive integer/],
    ['pairs:', /pairs needs a list/],
    ['pairs:nodeA', /is not FROM-TO/],
    ['permutation:-1', /non-negative/],
    ['incast:', /incast needs a destination/],
  ])('refuses %s with a reason', (text, reason) => {
    expect(() => parsePattern(text)).toThrow(PatternError);
    expect(() => parsePattern(text)).toThrow(reason);
  });

  it('splits names with dashes against the fabric', () => {
    const fabric = buildScenario('opa-ethernet-router');
    expect(parsePattern('pairs:opa-node-eth-node', fabric)).toEqual({
      kind: 'pairs',
      pairs: [['opa-node', 'eth-node']],
    });
  });

  it('checks endpoints against the fabric', () => {
    const fabric = buildScenario('ar-demo');
    expect(() => patternFlows(fabric, parsePattern('pairs:nodeA-nodeZ'))).toThrow(/unknown node "nodeZ"/);
    expect(() => patternFlows(fabric, parsePattern('pairs:nodeA-nodeA'))).toThrow(/paired with itself/);
    expect(() => patternFlows(fabric, parsePattern('pairs:nodeA-edge1'))).toThrow(/is a switch/);
    expect(() => patternFlows(fabric, parsePattern('shift:4'))).toThrow(/to itself/);
    expect(() => patternFlows(buildScenario('fat-tree-6912'), parsePattern('all-to-all'))).toThrow(
      /at most 2000000/,
    );
  });

  it('makes permutations that are seeded derangements', () => {
    const fabric = buildScenario('fat-tree-1152');
    const a = patternFlows(fabric, parsePattern('permutation:3'));
    expect(a).toEqual(patternFlows(fabric, parsePattern('permutation:3')));
    expect(a).not.toEqual(patternFlows(fabric, parsePattern('permutation:4')));
    expect(a.every(([s, d]) => s !== d)).toBe(true);
    expect(new Set(a.map(([, d]) => d)).size).toBe(1152);
  });

  it('sizes incast, all-to-all and bisection', () => {
    const fabric = buildScenario('single-switch-32');
    expect(patternFlows(fabric, parsePattern('incast:node05'))).toHaveLength(31);
    expect(patternFlows(fabric, parsePattern('all-to-all'))).toHaveLength(32 * 31);
    expect(patternFlows(fabric, parsePattern('bisection'))).toHaveLength(32);
  });
});

describe('contention analysis', () => {
  it('ar-demo: the seed pairs share edge1→core2, maxLinkLoad 2, 50 Gb/s each', () => {
    const fabric = buildScenario('ar-demo');
    const result = analyzeContention(
      fabric,
      fatTreeRouting(fabric),
      parsePattern('pairs:nodeA-nodeC,nodeB-nodeD'),
    );
    expect(result.maxLinkLoad).toBe(2);
    expect(result.collisions).toEqual([
      {
        link: 'edge1/4->core2/1',
        pairs: [
          ['nodeA', 'nodeC'],
          ['nodeB', 'nodeD'],
        ],
      },
      {
        link: 'core2/2->edge2/4',
        pairs: [
          ['nodeA', 'nodeC'],
          ['nodeB', 'nodeD'],
        ],
      },
    ]);
    // The shared ISL delivers 99 Gb/s of payload (12.38 GB/s), halved.
    expect(result.flows.map((f) => f.rateGbps)).toEqual([49.5, 49.5]);
    expect(result.links[0]).toEqual({
      link: 'edge1/4->core2/1',
      kind: 'isl',
      flows: 2,
      capacityGbps: 99,
      usedGbps: 99,
    });
  });

  it('fat-tree-1152: shift:24 under fattree has maxLinkLoad 1 and every flow at the deliverable rate', () => {
    const fabric = buildScenario('fat-tree-1152');
    const result = analyzeContention(fabric, fatTreeRouting(fabric), parsePattern('shift:24'));
    expect(result).toMatchObject({
      flowCount: 1152,
      routedCount: 1152,
      maxLinkLoad: 1,
      minFlowGbps: 99,
      collisions: [],
    });
  });

  it('ar-demo: with adaptive routing the seed pairs take both cores, 99 Gb/s (12.38 GB/s) each', () => {
    const fabric = buildScenario('ar-demo');
    const flows = patternFlows(fabric, parsePattern('pairs:nodeA-nodeC,nodeB-nodeD'));
    const result = analyzeFlows(fabric, fatTreeRouting(fabric), flows, { adaptive: true });
    expect(result.aggregateGbps).toBe(99);
    expect(result.adaptive).toEqual({ aggregateGbps: 198, minFlowGbps: 99, maxIslLoad: 1, sharedIsls: 0 });
    expect(result.flows.map((f) => [f.rateGbps, f.adaptiveRateGbps])).toEqual([
      [49.5, 99],
      [49.5, 99],
    ]);
  });

  it('fat-tree-1152 permutation:7: adaptive paths are as short as the static ones and never slower in total', () => {
    const fabric = buildScenario('fat-tree-1152');
    const tables = fatTreeRouting(fabric);
    const flows = patternFlows(fabric, parsePattern('permutation:7'));
    const result = analyzeFlows(fabric, tables, flows, { adaptive: true });
    const adaptive = result.adaptive;
    expect(adaptive).toBeTruthy();
    expect(adaptive?.aggregateGbps).toBeGreaterThan(result.aggregateGbps);
    expect(adaptive?.maxIslLoad).toBeLessThan(result.maxIslLoad);
    expect(result.flows.every((f) => f.adaptiveRateGbps !== undefined)).toBe(true);
    // Every adaptive path joins up, ends at its destination and has the static path's length.
    const g = fabricGraph(fabric);
    const statics = flows.map(([a, b]) => {
      const out: number[] = [];
      expect(traceChannels(fabric, g, tables, a, b, out)).toBeUndefined();
      return out;
    });
    const paths = adaptivePaths(g, fabric.nodes.length, flows, statics);
    paths.forEach((path, f) => {
      const [a, b] = flows[f] as [number, number];
      expect(path.length).toBe(statics[f]?.length);
      expect(g.channelFromNode[path[0] as number]).toBe(a);
      expect(g.channelToNode[path[path.length - 1] as number]).toBe(b);
      for (let i = 1; i < path.length; i++) {
        expect(g.channelFromNode[path[i] as number]).toBe(g.channelToNode[path[i - 1] as number]);
      }
    });
  });

  it('expects what links deliver: the data rate after encoding, times the RDMA payload share', () => {
    // 4x FDR is quoted 56 Gb/s but carries 54.55 after 64b/66b: 54.0 Gb/s of payload, not 56.
    const lustre = buildScenario('lustre-storage');
    const ib = analyzeContention(
      lustre,
      buildForwardingTables(lustre),
      parsePattern('pairs:client1-ib->client2-ib'),
    );
    expect(ib.flows[0]?.rateGbps).toBeCloseTo(56 * (64 / 66) * (14.0625 / 14) * 0.99, 2);
    expect(ib.flows[0]?.rateGbps).toBeLessThan(54.5);
    // 40 GbE: the sold rate is the data rate.
    const eth = analyzeContention(
      lustre,
      buildForwardingTables(lustre),
      parsePattern('pairs:client1-eth->client2-eth'),
    );
    expect(eth.flows[0]?.rateGbps).toBeCloseTo(40 * 0.99, 3);
    // No estimate ever exceeds what the flows' links deliver: at most 12.38 GB/s (99 Gb/s) a flow
    // on 100 Gb/s Omni-Path, with or without adaptive routing (the 13,693.75 GB/s assumed 12.5).
    const fabric = buildScenario('fat-tree-1152');
    const tables = fatTreeRouting(fabric);
    const result = analyzeFlows(fabric, tables, patternFlows(fabric, parsePattern('permutation:7')), {
      adaptive: true,
    });
    for (const f of result.flows) {
      expect(f.rateGbps).toBeLessThanOrEqual(99);
      expect(f.adaptiveRateGbps).toBeLessThanOrEqual(99);
    }
    expect(result.adaptive?.aggregateGbps).toBeLessThanOrEqual(1152 * 99 + 1e-6);
    for (const l of result.links) expect(l.usedGbps).toBeLessThanOrEqual(l.capacityGbps + 1e-3);
  });

  it('incast shares the destination port max-min fairly', () => {
    const fabric = buildScenario('single-switch-32');
    const result = analyzeContention(fabric, buildForwardingTables(fabric), parsePattern('incast:node01'));
    expect(result.maxLinkLoad).toBe(31);
    expect(result.minFlowGbps).toBeCloseTo(99 / 31, 2);
    expect(result.aggregateGbps).toBeCloseTo(99, 1);
  });

  it('reports flows between networks that are not joined as unroutable', () => {
    const fabric = buildScenario('lustre-storage');
    const result = analyzeContention(
      fabric,
      buildForwardingTables(fabric),
      parsePattern('pairs:client1-eth->lustre-server-ib'),
    );
    expect(result.routedCount).toBe(0);
    expect(result.unroutable[0]?.reason).toMatch(/no route to LID/);
  });
});

describe('max-min sharing', () => {
  it('gives the classic textbook answer', () => {
    // Channels 0 (cap 10) and 1 (cap 4). Flow 0 on both, flow 1 on 0, flow 2 on 1.
    const rates = maxMinFair({
      paths: [[0, 1], [0], [1]],
      demands: [Infinity, Infinity, Infinity],
      capacities: [10, 4],
    });
    expect([...rates]).toEqual([2, 8, 2]);
  });
});
