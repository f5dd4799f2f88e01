import { describe, expect, it } from 'vitest';
import { buildPods, busiest, switchPorts } from './podMatrix.ts';
import { threeTier } from './testTopologies.ts';

describe('pods of a three-tier fabric', () => {
  const fabric = threeTier();
  const pods = buildPods(fabric);
  const channelId = (c: number) => {
    const l = fabric.links[c >> 1];
    if (!l) throw new Error(`no channel ${c}`);
    const [from, to] = c % 2 === 0 ? [l.a, l.b] : [l.b, l.a];
    return `${from.node}/${from.port}->${to.node}/${to.port}`;
  };

  it('finds each pod: its edge and aggregation switches', () => {
    expect(pods.map((p) => [p.name, p.edges, p.aggregations])).toEqual([
      ['pod 1', ['edge1', 'edge2'], ['agg1', 'agg2']],
      ['pod 2', ['edge3', 'edge4'], ['agg3', 'agg4']],
    ]);
  });

  it('gives each edge × aggregation cell its up and down channel', () => {
    const pod = pods[1];
    const cell = pod?.cells[1 * 2 + 0]; // edge4 × agg3
    expect(cell?.up.map(channelId)).toEqual(['edge4/3->agg3/2']);
    expect(cell?.down.map(channelId)).toEqual(['agg3/2->edge4/3']);
    expect(pod?.cells.every((c) => c !== null)).toBe(true);
  });

  it("lists a switch's ports with the channels out and in", () => {
    const ports = switchPorts(fabric, 'agg1');
    expect(ports.map((p) => [p.port, p.peer, channelId(p.out), channelId(p.in)])).toEqual([
      [1, 'edge1', 'agg1/1->edge1/3', 'edge1/3->agg1/1'],
      [2, 'edge2', 'agg1/2->edge2/3', 'edge2/3->agg1/2'],
      [3, 'core1', 'agg1/3->core1/1', 'core1/1->agg1/3'],
      [4, 'core2', 'agg1/4->core2/1', 'core2/1->agg1/4'],
    ]);
  });

  it('shows a trunk by its busiest cable, unknown as null', () => {
    expect(busiest([0, 1, 2], [0.2, null, 0.7])).toBe(0.7);
    expect(busiest([1], [0.2, null])).toBeNull();
    expect(busiest([], [])).toBeNull();
    // The dashboard's per-channel arrays say unknown with NaN.
    expect(busiest([0, 1], Float64Array.of(Number.NaN, 0.3))).toBe(0.3);
    expect(busiest([0], Float64Array.of(Number.NaN))).toBeNull();
  });
});
