import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Topology } from '../api/types.ts';
import { threeTier, twoTier } from '../test/testTopologies.ts';
import {
  blockChannels,
  buildFabricMatrix,
  cellChannels,
  directionLabel,
  directionValue,
  hottestCells,
  maxUtilization,
  type TwoTierMatrix,
} from './fabricMatrix.ts';

function matrixOf(topology: Topology): TwoTierMatrix {
  const result = buildFabricMatrix(topology);
  if (result.kind !== 'two-tier') throw new Error(`not two-tier: ${result.reason}`);
  return result.matrix;
}

describe('buildFabricMatrix', () => {
  it('puts edge switches on rows, core switches and host ports on columns, in natural order', () => {
    const topology = twoTier(12, 3, 2);
    // Shuffle: the matrix must not depend on input order of nodes.
    topology.nodes.reverse();
    const m = matrixOf(topology);
    expect(m.edges.slice(0, 3)).toEqual(['edge1', 'edge2', 'edge3']);
    expect(m.edges.at(-1)).toBe('edge12');
    expect(m.cores).toEqual(['core1', 'core2', 'core3']);
    expect(m.hostPorts).toEqual([1, 2]);
    expect(m.channelCount).toBe(topology.links.length * 2);
    expect(m.maxTrunk).toBe(1);
  });

  it('maps every channel to its cell: link i is channels 2i (a→b) and 2i+1 (b→a)', () => {
    const topology = twoTier(2, 2, 2);
    const m = matrixOf(topology);
    // edge2 → core1: link a = edge2, b = core1, so up (edge→core) is the even channel.
    const cell = m.isl[1 * m.cores.length + 0];
    const i = topology.links.findIndex((l) => l.a.node === 'edge2' && l.b.node === 'core1');
    expect(cell).toMatchObject({ edge: 'edge2', core: 'core1', up: [2 * i], down: [2 * i + 1] });
    // host3 sits on edge2 port 1; its link's a end is the host, so host→edge is the even channel.
    const host = m.hosts[1 * m.hostPorts.length + 0];
    const j = topology.links.findIndex((l) => l.a.node === 'host3');
    expect(host).toMatchObject({ edge: 'edge2', edgePort: 1, host: 'host3', up: 2 * j, down: 2 * j + 1 });
    // Every channel appears in exactly one cell half.
    const seen = new Set<number>();
    for (const c of m.isl) for (const ch of [...(c?.up ?? []), ...(c?.down ?? [])]) seen.add(ch);
    for (const c of m.hosts) if (c) seen.add(c.up).add(c.down);
    expect(seen.size).toBe(m.channelCount);
  });

  it('keeps the channel order when a link is written core-first', () => {
    const topology = twoTier(1, 1, 1);
    const isl = topology.links[1];
    if (!isl) throw new Error('no ISL');
    topology.links[1] = { ...isl, a: isl.b, b: isl.a };
    const cell = matrixOf(topology).isl[0];
    expect(cell).toMatchObject({ up: [3], down: [2] });
  });

  it('groups trunked ISLs into one cell, in edge port order', () => {
    const m = matrixOf(twoTier(2, 2, 1, 3));
    expect(m.maxTrunk).toBe(3);
    expect(m.isl[1]).toMatchObject({
      edge: 'edge1',
      core: 'core2',
      edgePorts: [5, 6, 7],
      corePorts: [1, 2, 3],
    });
    expect(m.isl[1]?.up).toHaveLength(3);
  });

  it('leaves cells empty where nothing is cabled (partial population)', () => {
    const topology = twoTier(2, 2, 2);
    topology.links = topology.links.filter((l) => l.a.node !== 'host4' && l.id !== 'edge2/4--core2/2');
    topology.nodes = topology.nodes.filter((n) => n.name !== 'host4');
    const m = matrixOf(topology);
    expect(m.hosts[3]).toBeNull();
    expect(m.isl[3]).toBeNull();
    expect(cellChannels(m, 'isl', 1, 1)).toBeNull();
    expect(cellChannels(m, 'host', 0, 0)).toEqual({ up: [0], down: [1] });
  });

  it('says why a fabric is not two-tier, and names unknown nodes', () => {
    expect(buildFabricMatrix(threeTier())).toEqual({
      kind: 'other',
      reason: 'the fabric has 3 switch tiers',
    });
    const withinTier = twoTier(2, 1, 1);
    withinTier.links.push({
      id: 'x',
      kind: 'isl',
      a: { node: 'edge1', port: 9 },
      b: { node: 'edge2', port: 9 },
      rateGbps: 100,
    });
    expect(buildFabricMatrix(withinTier)).toMatchObject({
      kind: 'other',
      reason: 'edge1 and edge2 share tier 1',
    });
    const hostOnCore = twoTier(1, 1, 1);
    hostOnCore.links.push({
      id: 'y',
      kind: 'host',
      a: { node: 'host1', port: 2 },
      b: { node: 'core1', port: 9 },
      rateGbps: 100,
    });
    expect(buildFabricMatrix(hostOnCore)).toMatchObject({ reason: 'host host1 is cabled to core1' });
    const broken = twoTier(1, 1, 1);
    broken.links.push({
      id: 'z',
      kind: 'isl',
      a: { node: 'edge1', port: 9 },
      b: { node: 'ghost', port: 1 },
      rateGbps: 100,
    });
    expect(() => buildFabricMatrix(broken)).toThrow('link "z" references unknown node "ghost"');
  });
});

describe('cell values', () => {
  it('aggregates trunks: max for colour, mean and summed GB/s for the tooltip, unknown counted', () => {
    expect(directionValue([0, 1, 2], [0.9, 0.3, null], [11e9, 3e9, null])).toEqual({
      max: 0.9,
      mean: 0.6,
      bytesPerSecond: 14e9,
      count: 3,
      unknown: 1,
    });
    expect(directionValue([0], [null], [null])).toMatchObject({
      max: null,
      mean: null,
      bytesPerSecond: null,
    });
  });

  it('names directions and ranks the hottest cell halves', () => {
    const topology = twoTier(2, 2, 2);
    const m = matrixOf(topology);
    const utilization: (number | null)[] = new Array(m.channelCount).fill(0);
    const edge1core2 = m.isl[1];
    const host3 = m.hosts[2];
    if (!edge1core2 || !host3) throw new Error('missing cells');
    utilization[edge1core2.up[0] ?? -1] = 0.99;
    utilization[host3.down] = 0.5;
    utilization[edge1core2.down[0] ?? -1] = null;
    expect(directionLabel(m, 'isl', 0, 1, 'up')).toBe('edge1 → core2');
    expect(directionLabel(m, 'isl', 0, 1, 'down')).toBe('core2 → edge1');
    expect(directionLabel(m, 'host', 1, 0, 'up')).toBe('host3 → edge2/1');
    expect(hottestCells(m, utilization, 5)).toEqual([
      { block: 'isl', row: 0, col: 1, half: 'up', utilization: 0.99, label: 'edge1 → core2' },
      { block: 'host', row: 1, col: 0, half: 'down', utilization: 0.5, label: 'edge2/1 → host3' },
    ]);
    expect(hottestCells(m, utilization, 1)).toHaveLength(1);
  });

  it('keeps the hottest, ties in drawing order (ISLs first), as sorting every cell would', () => {
    const m = matrixOf(twoTier(4, 4, 4));
    const utilization = Float64Array.from({ length: m.channelCount }, (_, c) => ((c * 7) % 5) / 4);
    const hot = hottestCells(m, utilization, 6);
    const every = hottestCells(m, utilization, m.channelCount);
    expect(hot).toEqual(every.slice(0, 6));
    for (let i = 1; i < every.length; i++) {
      const [a, b] = [every[i - 1], every[i]];
      expect((a?.utilization ?? 0) >= (b?.utilization ?? 0)).toBe(true);
      if (a?.utilization === b?.utilization && a?.block === 'host') expect(b?.block).toBe('host');
    }
    expect(hottestCells(m, utilization, 0)).toEqual([]);
  });
});

describe('the per-tick pass over the cells (no object per cell)', () => {
  it('blockChannels lists what cellChannels gives, cell by cell, once per matrix', () => {
    const m = matrixOf(twoTier(3, 2, 3));
    for (const block of ['isl', 'host'] as const) {
      const lists = blockChannels(m, block);
      const cols = block === 'isl' ? m.cores.length : m.hostPorts.length;
      for (let row = 0; row < m.edges.length; row++)
        for (let col = 0; col < cols; col++) {
          const cell = cellChannels(m, block, row, col);
          expect(lists.up[row * cols + col] ?? null).toEqual(cell?.up ?? null);
          expect(lists.down[row * cols + col] ?? null).toEqual(cell?.down ?? null);
        }
      expect(blockChannels(m, block)).toBe(lists);
    }
  });

  it('fast-check: maxUtilization is directionValue’s max, for any values (unknown, NaN, infinite)', () => {
    const value = fc.oneof(
      fc.constant(null),
      fc.constant(Number.NaN),
      fc.constant(Number.POSITIVE_INFINITY),
      fc.double({ min: -1, max: 2, noNaN: true }),
    );
    fc.assert(
      fc.property(
        fc.array(value, { minLength: 1, maxLength: 12 }),
        fc.array(fc.nat(11), { maxLength: 6 }),
        (values, picks) => {
          const channels = picks.map((p) => p % values.length);
          expect(maxUtilization(channels, values)).toBe(directionValue(channels, values, []).max);
        },
      ),
    );
  });
});
