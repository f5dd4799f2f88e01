import type { Topology } from '@fabscope/contracts';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildFabricMatrix, type TwoTierMatrix } from '../../lib/fabricMatrix.ts';
import { twoTier } from '../../test/testTopologies.ts';
import {
  blockChannels,
  cellChannels,
  directionLabel,
  directionValue,
  hottestCells,
  maxUtilization,
} from './heatmapCells.ts';

function matrixOf(topology: Topology): TwoTierMatrix {
  const result = buildFabricMatrix(topology);
  if (result.kind !== 'two-tier') throw new Error(`not two-tier: ${result.reason}`);
  return result.matrix;
}

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
