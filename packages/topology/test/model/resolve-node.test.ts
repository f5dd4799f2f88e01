import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  FabricBuilder,
  findNode,
  nameNodes,
  nodesNamed,
  nodesNamedIfKnown,
  normalizeGuid,
  railPairs,
  UnknownNodeError,
} from '../../src/index.ts';

/** Two hosts of two rails each (node001 by FQDN), one host of one rail, two leaves. */
function railFabric() {
  const b = new FabricBuilder('rails', 'infiniband');
  const hca = (name: string, guid: string, description: string) =>
    b.addNode({ name, type: 'host', guid: normalizeGuid(guid), portCount: 1, description });
  hca('node001/mlx5_0', '0x11', 'node001.cluster mlx5_0');
  hca('node001/mlx5_1', '0x12', 'node001.cluster mlx5_1');
  hca('node005/mlx5_0', '0x51', 'node005 mlx5_0');
  hca('node005/mlx5_1', '0x52', 'node005 mlx5_1');
  hca('node009', '0x91', 'node009 mlx5_1');
  b.addNode({
    name: 'leaf01',
    type: 'switch',
    guid: '0xa1',
    portCount: 8,
    description: 'MF0;leaf01:MQM8790/U1',
  });
  b.addNode({
    name: 'leaf02',
    type: 'switch',
    guid: '0xa2',
    portCount: 8,
    description: 'MF0;leaf02:MQM8790/U1',
  });
  b.connect('node001/mlx5_0', 1, 'leaf01', 1, 100);
  b.connect('node005/mlx5_0', 1, 'leaf01', 2, 100);
  b.connect('node001/mlx5_1', 1, 'leaf02', 1, 100);
  b.connect('node005/mlx5_1', 1, 'leaf02', 2, 100);
  b.connect('node009', 1, 'leaf02', 3, 100);
  b.connect('leaf01', 8, 'leaf02', 8, 100);
  return b.build();
}

describe('nodesNamed: one resolver for names, hosts and rails', () => {
  const fabric = railFabric();
  const names = (q: string) => nodesNamed(fabric, q).map((n) => n.name);

  it('a host is every rail; `host/device` one rail; an FQDN host answers to its short name', () => {
    expect(names('node005')).toEqual(['node005/mlx5_0', 'node005/mlx5_1']);
    expect(names('node001.cluster')).toEqual(['node001/mlx5_0', 'node001/mlx5_1']);
    expect(names('node001')).toEqual(['node001/mlx5_0', 'node001/mlx5_1']);
    expect(names('node001.cluster/mlx5_1')).toEqual(['node001/mlx5_1']);
    expect(names('node009/mlx5_1')).toEqual(['node009']);
  });

  it('a node name, GUID and LID still find one node; an unknown name is UnknownNodeError', () => {
    expect(names('leaf01')).toEqual(['leaf01']);
    expect(names('0x12')).toEqual(['node001/mlx5_1']);
    expect(() => nodesNamed(fabric, 'node404')).toThrow(UnknownNodeError);
    expect(nodesNamedIfKnown(fabric, 'node404')).toEqual([]);
  });

  it('findNode takes a host of one adapter or one rail; a host of several is named with its rails', () => {
    expect(findNode(fabric, 'node009/mlx5_1').name).toBe('node009');
    expect(findNode(fabric, 'node001/mlx5_1').name).toBe('node001/mlx5_1');
    expect(() => findNode(fabric, 'node005')).toThrow(
      '"node005" is a host of 2 adapters: name one (node005/mlx5_0, node005/mlx5_1)',
    );
  });

  it('pairs rails by device, the rest in order', () => {
    const pair = (a: string, b: string) =>
      railPairs(fabric, nodesNamed(fabric, a), nodesNamed(fabric, b)).map(([x, y]) => `${x.name}>${y.name}`);
    expect(pair('node001', 'node005')).toEqual([
      'node001/mlx5_0>node005/mlx5_0',
      'node001/mlx5_1>node005/mlx5_1',
    ]);
    expect(pair('node001', 'node009')).toEqual(['node001/mlx5_1>node009', 'node001/mlx5_0>node009']);
  });
});

describe('property: named as the conventions name them, every host resolves to exactly its adapters', () => {
  const host = fc.constantFrom('node001', 'node002', 'gpu-a.cluster', 'x1');
  const device = fc.constantFrom('mlx5_0', 'mlx5_1', 'hfi1_0');
  it('holds for any set of (host, device) adapters', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.tuple(host, device), {
          selector: ([h, d]) => `${h} ${d}`,
          minLength: 1,
          maxLength: 8,
        }),
        (adapters) => {
          const b = new FabricBuilder('p', 'infiniband');
          b.addNode({ name: 'sw', type: 'switch', guid: normalizeGuid('0xff'), portCount: 16 });
          const inputs = adapters.map(([h, d], i) => ({
            type: 'host' as const,
            guid: normalizeGuid(`0x${(i + 1).toString(16)}`),
            description: `${h} ${d}`,
          }));
          nameNodes(inputs).forEach((named, i) => {
            const input = inputs[i] as (typeof inputs)[number];
            b.addNode({
              name: named.name,
              type: 'host',
              guid: input.guid,
              portCount: 1,
              description: input.description,
            });
            b.connect(named.name, 1, 'sw', i + 1, 100);
          });
          const fabric = b.build();
          for (const h of new Set(adapters.map(([x]) => x))) {
            const want = adapters
              .filter(([x]) => x === h)
              .map(([x, d]) => `${x} ${d}`)
              .sort();
            const got = nodesNamed(fabric, h)
              .map((n) => n.description)
              .sort();
            expect(got).toEqual(want);
            for (const [, d] of adapters.filter(([x]) => x === h)) {
              expect(nodesNamed(fabric, `${h}/${d}`).map((n) => n.description)).toEqual([`${h} ${d}`]);
            }
          }
        },
      ),
    );
  });
});
