import { describe, expect, it } from 'vitest';
import { FabricBuilder, findInFabric, nodesNamed, normalizeGuid, railPairs } from '../../src/index.ts';

/** Two planes drawn as one fabric, as a server watching two local ports merges them: LIDs 1..3 on each. */
function twoPlanes() {
  const b = new FabricBuilder('planes', 'infiniband');
  for (const [k, subnet] of ['mlx5_0:1', 'mlx5_1:1'].entries()) {
    const device = subnet.split(':')[0] as string;
    b.addNode({
      name: `node001/${device}`,
      type: 'host',
      guid: normalizeGuid(`0x1${k}`),
      portCount: 1,
      lid: 1,
      subnet,
    });
    b.addNode({
      name: `node002/${device}`,
      type: 'host',
      guid: normalizeGuid(`0x2${k}`),
      portCount: 1,
      lid: 3,
      subnet,
    });
    b.addNode({
      name: `sw-${device}`,
      type: 'switch',
      guid: normalizeGuid(`0xa${k}`),
      portCount: 4,
      lid: 2,
      subnet,
    });
    b.connect(`node001/${device}`, 1, `sw-${device}`, 1, 100);
    b.connect(`node002/${device}`, 1, `sw-${device}`, 2, 100);
  }
  return b.build();
}

describe('lid:N on a fabric of several subnets', () => {
  const fabric = twoPlanes();

  it("names every subnet's node at that LID, not the first subnet's alone", () => {
    expect(nodesNamed(fabric, 'lid:1').map((n) => [n.name, n.subnet])).toEqual([
      ['node001/mlx5_0', 'mlx5_0:1'],
      ['node001/mlx5_1', 'mlx5_1:1'],
    ]);
    expect(nodesNamed(fabric, 'lid:0x2').map((n) => n.name)).toEqual(['sw-mlx5_0', 'sw-mlx5_1']);
    // Find lists each of them too.
    expect(findInFabric(fabric, 'lid:3', 20).matches.map((m) => m.target)).toEqual([
      'node002/mlx5_0',
      'node002/mlx5_1',
    ]);
  });

  it('pairs LID with LID within each subnet, so a route by LIDs stays on one plane', () => {
    const pairs = railPairs(fabric, nodesNamed(fabric, 'lid:1'), nodesNamed(fabric, 'lid:3'));
    expect(pairs.length).toBeGreaterThan(0);
    for (const [from, to] of pairs) expect(from.subnet).toBe(to.subnet);
  });

  it('a LID no node has is unknown, as before', () => {
    expect(() => nodesNamed(fabric, 'lid:9')).toThrow(/unknown node/i);
  });
});
