import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type LldpCable, type LldpSwitch, lldpFabric } from '../src/topology-live/lldp-fabric.ts';

const sw = (name: string, ports: number, speedMbps: number | null = 100_000): LldpSwitch => ({
  name,
  guid: `0x${name.length.toString(16).padStart(16, '0')}`,
  ports: Array.from({ length: ports }, (_, k) => ({
    number: k + 1,
    name: `Ethernet${k + 1}`,
    speedMbps,
    up: true,
  })),
});
const end = (node: string, port: number | null, portName = port === null ? 'eth0' : `Ethernet${port}`) => ({
  node,
  portName,
  port,
});
const hostGuid = (name: string) => `0x${Buffer.from(name).toString('hex').slice(0, 16).padStart(16, '0')}`;

describe('lldpFabric: the fabric LLDP neighbours describe', () => {
  it('draws switches with every port, an ISL once at the slower speed, hosts LLDP names, leaves under spines', () => {
    const switches = [
      sw('leaf1', 4),
      sw('leaf2', 4),
      { ...sw('spine1', 4), ports: sw('spine1', 4, 400_000).ports },
    ];
    const cables: LldpCable[] = [
      { a: end('leaf1', 3), b: end('spine1', 1), seenFrom: 'both' },
      { a: end('leaf2', 3), b: end('spine1', 2), seenFrom: 'one-end' },
      { a: end('leaf1', 1), b: end('nodeA', null, 'eth0'), seenFrom: 'one-end' },
      { a: end('leaf2', 1), b: end('nodeB', null, 'eth1'), seenFrom: 'one-end' },
      { a: end('leaf2', 2), b: end('nodeB', null, 'eth0'), seenFrom: 'one-end' },
    ];
    const { fabric, skipped } = lldpFabric('eth', switches, cables, hostGuid);
    expect(skipped).toEqual([]);
    expect(fabric.links.map((l) => `${l.id} ${l.kind} ${l.rateGbps}`).sort()).toEqual([
      'leaf1/3--spine1/1 isl 100',
      'leaf2/3--spine1/2 isl 100',
      'nodeA/1--leaf1/1 host 100',
      'nodeB/1--leaf2/2 host 100',
      'nodeB/2--leaf2/1 host 100',
    ]);
    expect(fabric.nodes.map((n) => `${n.name} ${n.type} ${n.tier} ${n.portCount}`).sort()).toEqual([
      'leaf1 switch 1 4',
      'leaf2 switch 1 4',
      'nodeA host 0 1',
      'nodeB host 0 2',
      'spine1 switch 2 4',
    ]);
    // An uncabled port is still the switch's, at its own speed.
    expect(fabric.nodeByName.get('spine1')?.ports[4]).toMatchObject({ link: -1, rateGbps: 400 });
  });

  it('skips, naming why, what cannot be placed: no port match, no system name, a port cabled twice', () => {
    const cables: LldpCable[] = [
      { a: end('leaf1', 3), b: { node: 'spine1', portName: 'Gi0/9', port: null }, seenFrom: 'one-end' },
      { a: end('leaf1', 1), b: { node: '', portName: 'eth0', port: null }, seenFrom: 'one-end' },
      { a: end('leaf1', 2), b: end('nodeA', null), seenFrom: 'one-end' },
      { a: end('leaf1', 2), b: end('nodeB', null), seenFrom: 'one-end' },
    ];
    const { fabric, skipped } = lldpFabric('eth', [sw('leaf1', 4), sw('spine1', 4)], cables, hostGuid);
    expect(skipped).toEqual([
      'leaf1 Ethernet3 – spine1 Gi0/9: no interface matches the port id',
      'leaf1 Ethernet1 – (no name) eth0: the neighbour sends no system name',
      'nodeB eth0 – leaf1/2: the port is cabled already',
    ]);
    expect(fabric.links.map((l) => l.id)).toEqual(['nodeA/1--leaf1/2']);
  });

  it('refuses a switch of more ports than the model holds, by name', () => {
    expect(() => lldpFabric('eth', [sw('big', 300)], [], hostGuid)).toThrow(/switch "big": 300 ports/);
  });

  it('draws any leaf–spine LLDP reports, from one end or both, as exactly its cabling', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 4 }),
        fc.integer({ min: 1, max: 6 }),
        fc.array(fc.boolean(), { minLength: 24, maxLength: 24 }),
        (spines, leaves, bothEnds) => {
          const switches = [
            ...Array.from({ length: leaves }, (_, l) => sw(`leaf${l + 1}`, spines + 1)),
            ...Array.from({ length: spines }, (_, s) => sw(`spine${s + 1}`, leaves)),
          ];
          const cables: LldpCable[] = [];
          for (let l = 1; l <= leaves; l++) {
            cables.push({ a: end(`leaf${l}`, 1), b: end(`host${l}`, null), seenFrom: 'one-end' });
            for (let s = 1; s <= spines; s++) {
              const seen = bothEnds[(l * spines + s) % 24] ? 'both' : 'one-end';
              const [a, b] = [end(`leaf${l}`, s + 1), end(`spine${s}`, l)];
              cables.push(bothEnds[(l + s) % 24] ? { a: b, b: a, seenFrom: seen } : { a, b, seenFrom: seen });
            }
          }
          const { fabric, skipped } = lldpFabric('eth', switches, cables, hostGuid);
          expect(skipped).toEqual([]);
          expect(fabric.links.filter((x) => x.kind === 'isl')).toHaveLength(spines * leaves);
          expect(fabric.links.filter((x) => x.kind === 'host')).toHaveLength(leaves);
          for (const n of fabric.nodes)
            expect(n.tier).toBe(n.type === 'host' ? 0 : n.name.startsWith('leaf') ? 1 : 2);
        },
      ),
      { numRuns: 50 },
    );
  });
});
