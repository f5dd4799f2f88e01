import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { nameNodes, parsePortsReport, readDescription } from '../../src/index.ts';

const label = fc.stringMatching(/^[a-z0-9](?:[a-z0-9-]{0,10}[a-z0-9])?$/);
const hostName = fc
  .array(label, { minLength: 1, maxLength: 3 })
  .map((labels) => labels.join('.'))
  // `localhost` names no host (a convention of its own).
  .filter((h) => !/--/.test(h) && !/^localhost(\.localdomain)?$/.test(h));
const device = fc.oneof(
  fc
    .tuple(fc.constantFrom('mlx5_', 'mlx4_', 'hfi1_', 'qib', 'rxe', 'bnxt_re', 'irdma'), fc.nat(15))
    .map(([d, n]) => `${d}${n}`),
  fc.nat(4).map((n) => `HCA-${n + 1}`),
);

describe('NodeDescription conventions', () => {
  it('reads rdma-ndd’s `%h %d`, FQDN hosts too, and MLNX_OFED’s `<host> HCA-1`', () => {
    expect(readDescription('node001 mlx5_0', 'host')).toMatchObject({
      convention: 'rdma-ndd',
      name: 'node001',
      host: 'node001',
      device: 'mlx5_0',
    });
    expect(readDescription('node001.cluster mlx5_1', 'host')).toMatchObject({
      host: 'node001.cluster',
      device: 'mlx5_1',
    });
    expect(readDescription('p0001 HCA-1', 'host')).toMatchObject({ host: 'p0001', device: 'HCA-1' });
    // Described before the host had its name: no host, made unique by GUID.
    expect(readDescription('localhost mlx5_0', 'host')).toEqual({
      convention: 'rdma-ndd',
      name: 'localhost mlx5_0',
      generic: true,
    });
    // Words that are no device (no number) are a description, and a switch is never `%h %d`.
    expect(readDescription('compute node', 'host')).toBeUndefined();
    expect(readDescription('leaf01 sw1', 'switch')).toBeUndefined();
  });

  it('reads managed switches’ `MF0;<name>:<model>/U1`, a director’s module kept', () => {
    expect(readDescription('MF0;leaf01:MQM8790/U1', 'switch')).toMatchObject({ name: 'leaf01' });
    expect(readDescription('MF0;ib-core:CS7520/L03/U1', 'switch')).toMatchObject({ name: 'ib-core/L03' });
    expect(readDescription('MF0;leaf01:MQM8790/U1', 'host')).toBeUndefined();
  });

  it('marks vendor defaults generic: never a name without the GUID', () => {
    const named = nameNodes([
      { type: 'switch', guid: '0x01', description: 'Quantum Mellanox Technologies' },
      { type: 'switch', guid: '0x02', description: 'SwitchIB Mellanox Technologies' },
      { type: 'host', guid: '0x03', description: 'MT4123 ConnectX6   Mellanox Technologies' },
    ]);
    expect(named.map((n) => n.name)).toEqual([
      'Quantum Mellanox Technologies (0x01)',
      'SwitchIB Mellanox Technologies (0x02)',
      'MT4123 ConnectX6 Mellanox Technologies (0x03)',
    ]);
  });

  it('property: any host and device round-trip through `%h %d`', () => {
    fc.assert(
      fc.property(hostName, device, (host, dev) => {
        expect(readDescription(`${host} ${dev}`, 'host')).toMatchObject({ name: host, host, device: dev });
      }),
    );
  });

  it('property: any text never throws; unread, it is the name as written (trimmed)', () => {
    fc.assert(
      fc.property(
        fc.string({ maxLength: 80 }),
        fc.constantFrom('host', 'switch', 'router') as fc.Arbitrary<'host'>,
        (text, type) => {
          const [named] = nameNodes([{ type, guid: '0x0000000000000001', description: text }]);
          const read = readDescription(text, type);
          if (!read) expect(named?.name).toBe(text.trim() || '0x0000000000000001');
          else expect(named?.source).toBe('convention');
        },
      ),
    );
  });
});

describe('nameNodes', () => {
  const hca = (guid: string, description: string) => ({ type: 'host' as const, guid, description });

  it('names a host of one adapter by its host, of several `host/device`; precedence map > convention > description', () => {
    const named = nameNodes(
      [
        hca('0x11', 'node001 mlx5_0'),
        hca('0x12', 'node001 mlx5_1'),
        hca('0x21', 'node002 mlx5_0'),
        { type: 'switch', guid: '0x31', description: 'MF0;leaf01:MQM8790/U1' },
        { type: 'switch', guid: '0x32', description: 'MF0;leaf02:MQM8790/U1' },
        { type: 'switch', guid: '0x33', description: 'my spine' },
      ],
      new Map([['0x32', 'rail1-leaf']]),
    );
    expect(named.map((n) => [n.name, n.source])).toEqual([
      ['node001/mlx5_0', 'convention'],
      ['node001/mlx5_1', 'convention'],
      ['node002', 'convention'],
      ['leaf01', 'convention'],
      ['rail1-leaf', 'map'],
      ['my spine', 'description'],
    ]);
    expect(named[1]).toMatchObject({ host: 'node001', device: 'mlx5_1' });
  });

  it('names the ports of one adapter listed apart `host/device:port`', () => {
    const named = nameNodes([
      { ...hca('0x1', 'node001 mlx4_0'), port: 1 },
      { ...hca('0x2', 'node001 mlx4_0'), port: 2 },
      { ...hca('0x3', 'node002 mlx4_0'), port: 1 },
    ]);
    expect(named.map((n) => n.name)).toEqual(['node001/mlx4_0:1', 'node001/mlx4_0:2', 'node002']);
  });

  it('makes a shared name unique by GUID, every node that shares it', () => {
    const named = nameNodes([hca('0x1', 'spare'), hca('0x2', 'spare'), { type: 'host', guid: '0x3' }]);
    expect(named.map((n) => n.name)).toEqual(['spare (0x1)', 'spare (0x2)', '0x3']);
  });

  it('property: names are unique whatever the descriptions and map', () => {
    const node = fc.record({
      type: fc.constantFrom('host', 'switch') as fc.Arbitrary<'host' | 'switch'>,
      guid: fc.constantFrom('0x1', '0x2', '0x3', '0x4'),
      description: fc.option(fc.constantFrom('a mlx5_0', 'a mlx5_1', 'b mlx5_0', 'x', 'MF0;x:Q/U1', 'a'), {
        nil: undefined,
      }),
    });
    fc.assert(
      fc.property(
        fc.array(node, { maxLength: 12 }),
        fc.constantFrom(new Map(), new Map([['0x2', 'a']])),
        (nodes, map) => {
          const names = nameNodes(nodes, map).map((n) => n.name);
          expect(new Set(names).size).toBe(names.length);
        },
      ),
    );
  });
});

describe('an `ibnetdiscover -p` report named as a real site names it', () => {
  const report = [
    "CA     5  1 0x0002c90300000011 4x EDR - SW     2  1 0x0002c90300000100 ( 'node001 mlx5_0' - 'MF0;leaf01:MQM8790/U1' )",
    "CA     6  1 0x0002c90300000021 4x EDR - SW     3  1 0x0002c90300000200 ( 'node001 mlx5_1' - 'MF0;leaf02:MQM8790/U1' )",
    "SW     2  1 0x0002c90300000100 4x EDR - CA     5  1 0x0002c90300000011 ( 'MF0;leaf01:MQM8790/U1' - 'node001 mlx5_0' )",
    "SW     3  1 0x0002c90300000200 4x EDR - CA     6  1 0x0002c90300000021 ( 'MF0;leaf02:MQM8790/U1' - 'node001 mlx5_1' )",
    '',
  ].join('\n');

  it('names hosts and switches, keeping the raw description and GUIDs', () => {
    const fabric = parsePortsReport(report, 'site');
    expect(fabric.links.map((l) => l.id).sort()).toEqual([
      'node001/mlx5_0/1--leaf01/1',
      'node001/mlx5_1/1--leaf02/1',
    ]);
    expect(fabric.nodeByName.get('node001/mlx5_1')).toMatchObject({
      description: 'node001 mlx5_1',
      guid: '0x0002c90300000021',
    });
  });

  it('a node-name-map overrides the convention, by node or port GUID', () => {
    const fabric = parsePortsReport(report, 'site', {
      nodeNames: new Map([
        ['0x0002c90300000100', 'rail0-leaf'],
        ['0x0002c90300000021', 'gpu-a-rail1'],
      ]),
    });
    expect(fabric.nodes.map((n) => n.name).sort()).toEqual([
      'gpu-a-rail1',
      'leaf02',
      'node001/mlx5_0',
      'rail0-leaf',
    ]);
  });
});
