import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { counterOf, parsePathText, portSpeedOf } from '../../../src/sources/gnmi/gnmi-paths.ts';
import { GnmiPortTable } from '../../../src/sources/gnmi/gnmi-port-table.ts';
import { farPortsOf, gnmiPorts } from '../../../src/sources/gnmi/gnmi-ports.ts';
import type { GnmiNotification, GnmiPath } from '../../../src/sources/gnmi/gnmi-proto.ts';

const elemPath = (text: string): GnmiPath => ({
  elem: parsePathText(text).map((e) => ({ name: e.name, key: e.key })),
});
const uint = (n: bigint | number) => ({ uint_val: String(n) });

describe('a target’s port table', () => {
  it('reads the same values from elem paths, deprecated element strings and a prefix', () => {
    const viaElem = new GnmiPortTable();
    viaElem.apply({
      update: [
        { path: elemPath('interfaces/interface[name=Ethernet1/1]/state/counters/in-octets'), val: uint(7) },
      ],
    });
    const viaElement = new GnmiPortTable();
    viaElement.apply({
      update: [
        {
          path: { element: ['interfaces', 'interface[name=Ethernet1/1]', 'state', 'counters', 'in-octets'] },
          val: uint(7),
        },
      ],
    });
    const viaPrefix = new GnmiPortTable();
    viaPrefix.apply({
      prefix: elemPath('openconfig-interfaces:interfaces/interface[name=Ethernet1/1]'),
      update: [{ path: elemPath('state/counters/in-octets'), val: { json_ietf_val: Buffer.from('"7"') } }],
    });
    for (const table of [viaElem, viaElement, viaPrefix]) {
      expect(table.interfaces()).toEqual([
        { name: 'Ethernet1/1', counters: { inOctets: 7n }, queues: new Map(), neighbours: new Map() },
      ]);
    }
  });

  it('reads a container sent whole as JSON, leaf by leaf', () => {
    const table = new GnmiPortTable();
    const counters = { 'in-octets': '18446744073709551615', 'out-octets': '5', 'in-multicast-pkts': '1' };
    const result = table.apply({
      update: [
        {
          path: elemPath('interfaces/interface[name=e1]/state/counters'),
          val: { json_ietf_val: Buffer.from(JSON.stringify(counters)) },
        },
      ],
    });
    expect(result).toEqual({ applied: 2, malformed: [] });
    expect(table.interfaces()[0]?.counters).toEqual({ inOctets: 2n ** 64n - 1n, outOctets: 5n });
  });

  it('refuses a malformed update alone, saying why, and keeps the rest of its notification', () => {
    const table = new GnmiPortTable();
    const n: GnmiNotification = {
      update: [
        {
          path: elemPath('interfaces/interface[name=e1]/state/counters/in-errors'),
          val: { string_val: 'lots' },
        },
        { path: elemPath('interfaces/interface[name=e1]/state/counters/out-octets'), val: { int_val: '-4' } },
        { path: elemPath('interfaces/interface/state/counters/in-octets'), val: uint(1) },
        {
          path: elemPath('interfaces/interface[name=e1]/state/oper-status'),
          val: { string_val: 'SIDEWAYS' },
        },
        { path: elemPath('interfaces/interface[name=e1]/state/counters/in-octets'), val: uint(99) },
        { path: elemPath('system/state/hostname'), val: { string_val: 'leaf1' } },
      ],
    };
    const result = table.apply(n);
    expect(result.applied).toBe(1);
    expect(result.malformed).toEqual([
      '/interfaces/interface[name=e1]/state/counters/in-errors: not a counter64: "lots"',
      '/interfaces/interface[name=e1]/state/counters/out-octets: not a counter64: -4',
      '/interfaces/interface/state/counters/in-octets: interface path without [name=…]',
      '/interfaces/interface[name=e1]/state/oper-status: not an oper-status: "SIDEWAYS"',
    ]);
    const [port] = gnmiPorts('leaf1', table.interfaces());
    expect(port?.receiveBytes).toBe(99);
    expect(port?.errors?.receiveErrors).toBeNaN();
    expect(port?.transmitBytes).toBeNaN();
    expect(port?.linkUp).toBe(false);
  });

  it('forgets what the target deletes', () => {
    const table = new GnmiPortTable();
    table.apply({
      update: [
        { path: elemPath('interfaces/interface[name=e1]/state/counters/in-octets'), val: uint(1) },
        { path: elemPath('interfaces/interface[name=e2]/state/counters/in-octets'), val: uint(2) },
      ],
    });
    table.apply({ delete: [elemPath('interfaces/interface[name=e1]')] });
    expect(table.interfaces().map((i) => i.name)).toEqual(['e2']);
  });

  it('numbers ports in natural name order and leaves queue counters unknown where a queue lacks them', () => {
    const table = new GnmiPortTable();
    const q = (iface: string, queue: string, leaf: string) =>
      elemPath(
        `qos/interfaces/interface[interface-id=${iface}]/output/queues/queue[name=${queue}]/state/${leaf}`,
      );
    table.apply({
      update: [
        { path: elemPath('interfaces/interface[name=Ethernet10]/state/counters/in-octets'), val: uint(1) },
        { path: elemPath('interfaces/interface[name=Ethernet2]/state/counters/in-octets'), val: uint(1) },
        { path: q('Ethernet2', '3', 'tx-wait'), val: uint(40) },
        { path: q('Ethernet2', '4', 'tx-wait'), val: uint(2) },
        { path: q('Ethernet10', '3', 'tx-wait'), val: uint(5) },
        { path: q('Ethernet10', '4', 'ecn-marked-pkts'), val: uint(5) },
      ],
    });
    const ports = gnmiPorts('leaf1', table.interfaces());
    expect(ports.map((p) => [p.portNumber, p.transmitWaitTicks])).toEqual([
      [1, 42],
      [2, Number.NaN],
    ]);
    expect(ports[0]?.rateBytesPerSecond).toBeNaN();
  });

  it('finds the far end of a cable from LLDP when that switch was read, by port-id, else port-description', () => {
    const lldp = (iface: string, id: string, leaf: string) =>
      elemPath(`lldp/interfaces/interface[name=${iface}]/neighbors/neighbor[id=${id}]/state/${leaf}`);
    const leaf1 = new GnmiPortTable();
    const result = leaf1.apply({
      update: [
        { path: lldp('Ethernet1', 'a', 'system-name'), val: { string_val: 'spine1' } },
        { path: lldp('Ethernet1', 'a', 'port-id'), val: { string_val: 'Ethernet7' } },
        { path: lldp('Ethernet2', 'b', 'system-name'), val: { string_val: 'spine1' } },
        { path: lldp('Ethernet2', 'b', 'port-id'), val: { string_val: 'aa:bb:cc:dd:ee:ff' } },
        { path: lldp('Ethernet2', 'b', 'port-description'), val: { string_val: 'Ethernet8' } },
        { path: lldp('Ethernet3', 'c', 'system-name'), val: { string_val: 'server9' } },
        { path: lldp('Ethernet3', 'c', 'port-id'), val: { int_val: '3' } },
      ],
    });
    expect(result.malformed).toEqual([
      '/lldp/interfaces/interface[name=Ethernet3]/neighbors/neighbor[id=c]/state/port-id: not a name: 3',
    ]);
    const spine1 = new GnmiPortTable();
    spine1.apply({
      update: ['Ethernet7', 'Ethernet8', 'Ethernet10'].map((name) => ({
        path: elemPath(`interfaces/interface[name=${name}]/state/oper-status`),
        val: { string_val: 'UP' },
      })),
    });
    const far = farPortsOf(new Map([['spine1', spine1.interfaces()]]));
    const ports = gnmiPorts('leaf1', leaf1.interfaces(), far);
    expect(ports.map((p) => [p.portNumber, p.remote?.nodeName, p.remote?.portNumber])).toEqual([
      [1, 'spine1', 1],
      [2, 'spine1', 2],
      [3, undefined, undefined],
    ]);
  });

  it('reads any counter64 exactly and refuses what is not one', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }), (n) => {
        expect(counterOf(n)).toBe(n);
        expect(counterOf(n.toString())).toBe(n);
      }),
    );
    for (const bad of [-1n, 2n ** 64n, '1e3', '', ' 1', 1.5, null, true]) expect(counterOf(bad)).toBeNull();
  });

  it('turns port-speed identities into bits per second', () => {
    expect(portSpeedOf('openconfig-if-ethernet:SPEED_400GB')).toBe(400e9);
    expect(portSpeedOf('SPEED_2500MB')).toBe(2.5e9);
    expect(portSpeedOf('SPEED_UNKNOWN')).toBeNaN();
    expect(portSpeedOf('fast')).toBeNull();
  });
});
