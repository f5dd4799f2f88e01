import type { Topology } from '@fabscope/contracts';
import { describe, expect, it } from 'vitest';
import { threeTier, twoTier } from '../test/testTopologies.ts';
import { buildFabricMatrix, type TwoTierMatrix } from './fabricMatrix.ts';

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
    expect(m.hosts[0]).toMatchObject({ up: 0, down: 1 });
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
