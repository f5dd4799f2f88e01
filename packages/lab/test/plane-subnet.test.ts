import { describe, expect, it } from 'vitest';
import { planeNetFile, planeSubnet } from '../src/index.ts';

describe('a plane of a multi-plane cluster, for the lab', () => {
  it('joins every host by its plane’s adapter through two leaves and a spine, named as a site names them', () => {
    const plane = planeSubnet({ plane: 1, hosts: 5 });
    expect(plane.nodes.map((n) => [n.name, n.description])).toEqual([
      ['plane2-leaf01', 'MF0;plane2-leaf01:MQM8790/U1'],
      ['plane2-leaf02', 'MF0;plane2-leaf02:MQM8790/U1'],
      ['plane2-spine01', 'MF0;plane2-spine01:MQM8790/U1'],
      ...[1, 2, 3, 4, 5].map((h) => [`node00${h}`, `node00${h} mlx5_1`]),
    ]);
    expect(plane.links.map((l) => l.id)).toEqual([
      'node001/1--plane2-leaf01/1',
      'node002/1--plane2-leaf01/2',
      'node003/1--plane2-leaf01/3',
      'node004/1--plane2-leaf02/1',
      'node005/1--plane2-leaf02/2',
      'plane2-leaf01/40--plane2-spine01/1',
      'plane2-leaf02/40--plane2-spine01/2',
    ]);
    expect(() => planeSubnet({ plane: 0, hosts: 1 })).toThrow(/plane 0/);
  });

  it('gives each plane’s ibsim GUID bases of its own, ahead of its nodes', () => {
    const [first, second] = [0, 1].map((plane) => planeNetFile({ plane }).split('\n'));
    expect(first?.slice(0, 2)).toEqual(['caguid=0x2c90400000000', 'switchguid=0x2c90400800000']);
    expect(second?.slice(0, 2)).toEqual(['caguid=0x2c90401000000', 'switchguid=0x2c90401800000']);
    expect(second?.some((l) => l.includes('# "node001 mlx5_1"'))).toBe(true);
  });
});
