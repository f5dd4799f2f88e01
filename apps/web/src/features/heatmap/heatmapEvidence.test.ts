import type { Topology } from '@fabscope/contracts';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { CompactSnapshot } from '../../api/types.ts';
import { buildFabricMatrix, type TwoTierMatrix } from '../../lib/fabricMatrix.ts';
import { linkState } from '../../test/testFixtures.ts';
import { twoTier } from '../../test/testTopologies.ts';
import { directionEvidence, type EvidenceSource } from './heatmapEvidence.ts';
import { directionIds, tooltipLines } from './heatmapText.ts';

function matrixOf(topology: Topology): TwoTierMatrix {
  const result = buildFabricMatrix(topology);
  if (result.kind !== 'two-tier') throw new Error(`not two-tier: ${result.reason}`);
  return result.matrix;
}

describe('a heatmap direction’s evidence', () => {
  it('shows the XmitWait share, and errors with integrity of threshold', () => {
    const e = directionEvidence([1], { waitFraction: [0, 0.667], errors: [[1, 2, 1.2]], errorsUnknown: 0 });
    expect(e).toEqual({ wait: 'Wait 66.7 %', errors: 'errors 2.0/s · Integrity 120 %', categories: null });
  });

  it('takes the worst wait over trunks and sums their errors', () => {
    const e = directionEvidence([0, 1, 2], {
      waitFraction: [0.2, null, 0.5],
      errors: [
        [0, 1, null],
        [2, 3, 0.5],
      ],
      errorsUnknown: 0,
    });
    expect(e).toEqual({ wait: 'Wait 50.0 %', errors: 'errors 4.0/s · Integrity 50 %', categories: null });
  });

  it('says "—" for unknown wait and errors, never 0', () => {
    const e = directionEvidence([0], { waitFraction: [null], errors: [], errorsUnknown: 4 });
    expect(e).toEqual({ wait: 'Wait —', errors: 'errors —', categories: null });
  });

  it('says "no errors" only when every channel’s counters are known', () => {
    expect(directionEvidence([0], { waitFraction: [0], errors: [], errorsUnknown: 0 })).toEqual({
      wait: 'Wait 0.0 %',
      errors: 'no errors',
      categories: null,
    });
  });

  it('names the PM categories near their threshold of a direction the stream ranks', () => {
    const congested = linkState('edge1/4->core2/1', {
      categories: { congestion: 1.5, bubble: 0.8, smaCongestion: 0.2, integrity: 2 },
    });
    const source: EvidenceSource = { waitFraction: [0.5], errors: [], errorsUnknown: 0, top: [congested] };
    expect(directionEvidence([0], source, ['edge1/4->core2/1']).categories).toBe(
      'Congestion 150 % · Bubble 80 %',
    );
    expect(directionEvidence([0], source, ['edge1/3->core1/1']).categories).toBeNull();
  });

  it('never reads unknown as a measured 0 %', () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom<number | null>(null, Number.NaN), { minLength: 1, maxLength: 8 }),
        (waits) => {
          const s: EvidenceSource = { waitFraction: waits, errors: [], errorsUnknown: waits.length };
          const e = directionEvidence(
            waits.map((_, i) => i),
            s,
          );
          expect(e.wait).toBe('Wait —');
          expect(e.errors).toBe('errors —');
        },
      ),
    );
  });
});

describe('the heatmap tooltip', () => {
  const matrix = matrixOf(twoTier(2, 2, 2));
  const cell = matrix.isl[0];
  if (!cell) throw new Error('no ISL cell');
  const channels = matrix.channelCount;
  const snapshotWith = (up: number | null): CompactSnapshot => {
    const wait: (number | null)[] = new Array(channels).fill(0);
    wait[cell.up[0] ?? 0] = up;
    return {
      utilization: new Array(channels).fill(0.99),
      bytesPerSecond: new Array(channels).fill(1e9),
      waitFraction: Float64Array.from(wait, (w) => w ?? Number.NaN),
      errors: [[cell.down[0] ?? 0, 0.5, null]],
      errorsUnknown: 0,
    } as unknown as CompactSnapshot;
  };

  it('lists a waiting cell’s wait beside its utilization in both directions', () => {
    const tip = tooltipLines(
      matrix,
      { block: 'isl', row: 0, col: 0, half: 'up' },
      snapshotWith(0.667),
      'bits',
    );
    expect(tip?.lines.map((l) => l.evidence)).toEqual([
      'Wait 66.7 % · no errors',
      'Wait 0.0 % · errors 0.50/s',
    ]);
  });

  it('shows unknown wait as "—"', () => {
    const tip = tooltipLines(
      matrix,
      { block: 'isl', row: 0, col: 0, half: 'up' },
      snapshotWith(null),
      'bits',
    );
    expect(tip?.lines[0]?.evidence).toBe('Wait — · no errors');
  });

  it('names each trunk’s direction as the API does, for its categories', () => {
    const topology = twoTier(2, 2, 2, 2);
    const trunked = matrixOf(topology);
    const directions = new Set(
      topology.links.flatMap((l) => [
        `${l.a.node}/${l.a.port}->${l.b.node}/${l.b.port}`,
        `${l.b.node}/${l.b.port}->${l.a.node}/${l.a.port}`,
      ]),
    );
    const reverse = (id: string) => id.split('->').reverse().join('->');
    for (const block of ['isl', 'host'] as const) {
      const cols = block === 'isl' ? trunked.cores.length : trunked.hostPorts.length;
      for (let row = 0; row < trunked.edges.length; row++)
        for (let col = 0; col < cols; col++) {
          const up = directionIds(trunked, { block, row, col }, 'up');
          const down = directionIds(trunked, { block, row, col }, 'down');
          for (const id of [...up, ...down]) expect(directions.has(id)).toBe(true);
          expect(down).toEqual(up.map(reverse));
          if (block === 'isl') expect(up).toHaveLength(2);
        }
    }
    expect(directionIds(trunked, { block: 'host', row: 0, col: 0 }, 'up')).toEqual(['host1/1->edge1/1']);
  });

  it('has no evidence before the first sample', () => {
    const tip = tooltipLines(matrix, { block: 'host', row: 0, col: 0, half: 'down' }, null, 'bits');
    expect(tip?.lines.every((l) => l.evidence === null)).toBe(true);
  });
});
