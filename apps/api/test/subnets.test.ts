import {
  applyIbroute,
  emptyTables,
  type Fabric,
  FabricBuilder,
  fabricOfSnapshot,
  findNode,
  nodesNamed,
  routeBetween,
  topologySnapshot,
} from '@fabscope/topology';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { smTablesFollowerFor } from '../src/sm-tables/from-config.ts';
import type { SmTablesRead, SmTablesSource } from '../src/sm-tables/source.ts';
import { SubnetsTables } from '../src/sm-tables/subnets-tables.ts';
import { mergeSubnets } from '../src/topology-live/subnets.ts';

/** One plane as its own subnet: two hosts on one switch, LIDs as its own SM gives them (the same on every plane). */
function plane(device: string, guidBase: number): Fabric {
  const guid = (n: number) => `0x${(guidBase + n).toString(16).padStart(16, '0')}`;
  const b = new FabricBuilder(`plane-${device}`, 'infiniband');
  b.addNode({
    name: 'node001',
    type: 'host',
    guid: guid(1),
    portCount: 1,
    lid: 1,
    description: `node001 ${device}`,
  });
  b.addNode({
    name: 'node002',
    type: 'host',
    guid: guid(2),
    portCount: 1,
    lid: 3,
    description: `node002 ${device}`,
  });
  b.addNode({
    name: `sw-${device}`,
    type: 'switch',
    guid: guid(3),
    portCount: 8,
    tier: 1,
    lid: 2,
    description: `MF0;sw-${device}:MQM8790/U1`,
  });
  b.connect('node001', 1, `sw-${device}`, 1, 100, 'host');
  b.connect('node002', 1, `sw-${device}`, 2, 100, 'host');
  return b.build();
}

/** The switch's table as OpenSM dumps it: host 1 out of port `toFirst`, host 3 out of `toSecond`. */
function dump(switchGuid: string, toFirst: number, toSecond: number): string {
  return [
    `Unicast lids [0x0-0x3] of switch Lid 2 guid ${switchGuid} (MF0;sw:MQM8790/U1):`,
    `0x0001 00${toFirst} : (Channel Adapter)`,
    '0x0002 000 : (Switch)',
    `0x0003 00${toSecond} : (Channel Adapter)`,
    '3 valid lids dumped',
  ].join('\n');
}

const a = plane('mlx5_0', 0xa000);
const b = plane('mlx5_1', 0xb000);

describe('several subnets drawn as one fabric', () => {
  const merged = mergeSubnets(
    [
      { subnet: 'mlx5_0:1', fabric: a },
      { subnet: 'mlx5_1:1', fabric: b },
    ],
    'infiniband',
  );

  it('names a host’s adapters on two subnets as its rails, each node with its subnet and own LID', () => {
    expect(merged.nodes.map((n) => [n.name, n.subnet, n.lid])).toEqual([
      ['node001/mlx5_0', 'mlx5_0:1', 1],
      ['node002/mlx5_0', 'mlx5_0:1', 3],
      ['sw-mlx5_0', 'mlx5_0:1', 2],
      ['node001/mlx5_1', 'mlx5_1:1', 1],
      ['node002/mlx5_1', 'mlx5_1:1', 3],
      ['sw-mlx5_1', 'mlx5_1:1', 2],
    ]);
    expect(nodesNamed(merged, 'node001').map((n) => n.name)).toEqual(['node001/mlx5_0', 'node001/mlx5_1']);
    expect(merged.links.map((l) => l.id)).toEqual([
      'node001/mlx5_0/1--sw-mlx5_0/1',
      'node002/mlx5_0/1--sw-mlx5_0/2',
      'node001/mlx5_1/1--sw-mlx5_1/1',
      'node002/mlx5_1/1--sw-mlx5_1/2',
    ]);
    // A LID alone names the first subnet's node; a GUID names one everywhere.
    expect(findNode(merged, 'lid:1').name).toBe('node001/mlx5_0');
    expect(findNode(merged, b.nodes[0]?.guid as string).name).toBe('node001/mlx5_1');
  });

  it('routes each subnet by its own SM’s table, both dumps applied by switch GUID', () => {
    const text = `${dump(a.nodes[2]?.guid as string, 1, 2)}\n${dump(b.nodes[2]?.guid as string, 1, 2)}`;
    const tables = applyIbroute(merged, emptyTables(merged, 'none'), text);
    for (const device of ['mlx5_0', 'mlx5_1']) {
      const route = routeBetween(merged, tables, `node001/${device}`, `node002/${device}`);
      expect(route.hops.map((h) => h.node)).toEqual([
        `node001/${device}`,
        `sw-${device}`,
        `node002/${device}`,
      ]);
    }
    // Across subnets no cable joins: the walk never reaches the other plane's host.
    expect(() => routeBetween(merged, tables, 'node001/mlx5_0', 'node002/mlx5_1')).toThrow(/reached host/);
  });

  it('keeps every subnet’s LIDs through a topology version (a redraw after discovery)', () => {
    const redrawn = fabricOfSnapshot(topologySnapshot(merged));
    expect(redrawn.nodes.map((n) => [n.name, n.subnet, n.lid])).toEqual(
      merged.nodes.map((n) => [n.name, n.subnet, n.lid]),
    );
  });

  it('names the two ports of one adapter, each on its own subnet, host/device:port', () => {
    const half = (port: number, sw: string) => {
      const f = new FabricBuilder(sw, 'infiniband');
      f.addNode({
        name: 'a',
        type: 'host',
        guid: '0x00000000000000aa',
        portCount: 2,
        lid: 1,
        description: 'node001 mlx4_0',
      });
      f.addNode({ name: sw, type: 'switch', guid: `0x00000000000000${sw}`, portCount: 8, lid: 2 });
      f.connect('a', port, sw, 1, 100, 'host');
      return f.build();
    };
    const dual = mergeSubnets(
      [
        { subnet: 'mlx4_0:1', fabric: half(1, 'b1') },
        { subnet: 'mlx4_0:2', fabric: half(2, 'b2') },
      ],
      'infiniband',
    );
    expect(dual.nodes.map((n) => n.name)).toEqual(['node001/mlx4_0:1', 'b1', 'node001/mlx4_0:2', 'b2']);
    expect(nodesNamed(dual, 'node001').map((n) => n.subnet)).toEqual(['mlx4_0:1', 'mlx4_0:2']);
  });

  it('refuses a port seen on two subnets rather than mixing their counters', () => {
    expect(() =>
      mergeSubnets(
        [
          { subnet: 'plane1', fabric: a },
          { subnet: 'plane2', fabric: a },
        ],
        'infiniband',
      ),
    ).toThrow(/is on subnets plane1 and plane2/);
  });
});

describe('merging any planes', () => {
  /** Plane `p` of `hosts` hosts on one switch, LIDs in the order given (each plane's SM numbers from 1). */
  function anyPlane(p: number, hosts: number, lids: readonly number[]): Fabric {
    const b = new FabricBuilder(`plane${p}`, 'infiniband');
    const guid = (n: number) => `0x${(0x10000 * (p + 1) + n).toString(16).padStart(16, '0')}`;
    b.addNode({ name: 'sw', type: 'switch', guid: guid(0), portCount: 16, tier: 1, lid: lids[0] as number });
    for (let h = 1; h <= hosts; h++) {
      const host = `node${String(h).padStart(3, '0')}`;
      b.addNode({
        name: host,
        type: 'host',
        guid: guid(h),
        portCount: 1,
        lid: lids[h] as number,
        description: `${host} mlx5_${p}`,
      });
      b.connect(host, 1, 'sw', h, 100, 'host');
    }
    return b.build();
  }

  it('keeps every node, its LID and subnet, names each once, and gives a host one rail per plane', () => {
    const plane = fc
      .integer({ min: 1, max: 6 })
      .chain((hosts) =>
        fc.tuple(
          fc.constant(hosts),
          fc.shuffledSubarray([1, 2, 3, 4, 5, 6, 7, 8, 9], { minLength: hosts + 1, maxLength: hosts + 1 }),
        ),
      );
    fc.assert(
      fc.property(fc.array(plane, { minLength: 2, maxLength: 3 }), (planes) => {
        const parts = planes.map(([hosts, lids], p) => ({
          subnet: `mlx5_${p}:1`,
          fabric: anyPlane(p, hosts, lids),
        }));
        const merged = mergeSubnets(parts, 'infiniband');
        expect(merged.nodes).toHaveLength(parts.reduce((n, part) => n + part.fabric.nodes.length, 0));
        expect(new Set(merged.nodes.map((n) => n.name)).size).toBe(merged.nodes.length);
        const byGuid = new Map(merged.nodes.map((n) => [n.guid, n]));
        for (const part of parts) {
          for (const n of part.fabric.nodes) {
            expect(byGuid.get(n.guid)?.lid).toBe(n.lid);
            expect(byGuid.get(n.guid)?.subnet).toBe(part.subnet);
          }
        }
        for (const l of merged.links) {
          expect(merged.nodeByName.get(l.a.node)?.subnet).toBe(merged.nodeByName.get(l.b.node)?.subnet);
        }
        expect(nodesNamed(merged, 'node001').map((n) => n.subnet)).toEqual(parts.map((p) => p.subnet));
      }),
    );
  });
});

/** A source that answers what it is given, in turn. */
function source(...reads: SmTablesRead[]): SmTablesSource {
  return { from: 'lfts-dump', read: async () => reads.shift() ?? { kind: 'not-ready', reason: 'none left' } };
}

describe('every subnet’s SM tables read as one', () => {
  it('joins the dumps; unchanged only when every subnet’s version is', async () => {
    const both = new SubnetsTables([
      {
        name: 'plane1',
        source: source({ kind: 'dump', text: 'A', version: '1' }, { kind: 'dump', text: 'A', version: '1' }),
      },
      {
        name: 'plane2',
        source: source({ kind: 'dump', text: 'B', version: '7' }, { kind: 'dump', text: 'B2', version: '8' }),
      },
    ]);
    const first = await both.read(undefined);
    expect(first).toEqual({ kind: 'dump', text: 'A\nB', version: 'plane1=1 plane2=7' });
    expect(await both.read('plane1=1 plane2=7')).toEqual({
      kind: 'dump',
      text: 'A\nB2',
      version: 'plane1=1 plane2=8',
    });
  });

  it('refuses one FABSCOPE_LFTS dump file for several subnets', async () => {
    const target = { fabric: a, tables: emptyTables(a, 'none') };
    const subnets = [{ name: 'mlx5_0:1' }, { name: 'mlx5_1:1' }];
    await expect(
      smTablesFollowerFor(
        { kind: 'file', path: '/tmp/opensm-lfts.dump', intervalMs: 1000 },
        target,
        undefined,
        {
          subnets,
        },
      ),
    ).rejects.toThrow(/FABSCOPE_LFTS names one dump file, but 2 subnets are watched/);
  });

  it('is not ready while one subnet is not, and fails naming the subnet that failed', async () => {
    const waiting = new SubnetsTables([
      { name: 'plane1', source: source({ kind: 'dump', text: 'A' }) },
      { name: 'plane2', source: source({ kind: 'not-ready', reason: 'being written' }) },
    ]);
    expect(await waiting.read(undefined)).toEqual({
      kind: 'not-ready',
      reason: 'subnet plane2: being written',
    });
    const failing = new SubnetsTables([
      {
        name: 'plane1',
        source: {
          from: 'dump_fts',
          read: async () => {
            throw new Error('dump_fts -n: no SM');
          },
        },
      },
    ]);
    await expect(failing.read(undefined)).rejects.toThrow('subnet plane1: dump_fts -n: no SM');
  });
});
