import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { counter64, decodeAnswer, octetText } from '../../../src/sources/snmp/snmp-tables.ts';
import { agentAnswer, counter64Buffer } from './answers.ts';

describe("decoding an agent's answer", () => {
  it('reads any Counter64 as net-snmp gives it, up to 2^64 - 1', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: (1n << 64n) - 1n }), (value) => {
        expect(counter64(counter64Buffer(value))).toBe(value);
      }),
    );
    expect(counter64(Buffer.alloc(9, 1))).toBeNull();
    expect(counter64(null)).toBeNull();
  });

  it('prints an OCTET STRING as text when printable, else as hex bytes', () => {
    expect(octetText(Buffer.from('Ethernet47'))).toBe('Ethernet47');
    expect(octetText(Buffer.from('001c73b4fd69', 'hex'))).toBe('00:1c:73:b4:fd:69');
    expect(octetText(Buffer.alloc(0))).toBe('');
    expect(octetText(null)).toBe('');
  });

  it('keeps Ethernet ports only, in ifIndex order, a zero speed unknown', () => {
    const reading = decodeAnswer(
      agentAnswer({
        sysName: 'leaf1',
        upTimeTicks: 1,
        interfaces: [
          { ifIndex: 3, name: 'Ethernet3', up: false, speedMbps: 0 },
          { ifIndex: 1, name: 'Ethernet1', outOctets: (1n << 63n) + 5n },
          { ifIndex: 1000001, name: 'Port-Channel1', type: 161 },
          { ifIndex: 2000040, name: 'Vlan40', type: 136 },
        ],
      }),
    );
    expect(reading.interfaces.map((i) => [i.name, i.operUp, i.speedMbps, i.outOctets])).toEqual([
      ['Ethernet1', true, 100_000, (1n << 63n) + 5n],
      ['Ethernet3', false, null, 0n],
    ]);
  });

  it('refuses an answer without sysUpTime or 64-bit counters, saying which', () => {
    const answer = agentAnswer({ sysName: 's', upTimeTicks: 1, interfaces: [{ ifIndex: 1, name: 'e1' }] });
    expect(() => decodeAnswer({ ...answer, upTimeTicks: null })).toThrow('no sysUpTime in the answer');
    expect(() => decodeAnswer({ ...answer, ifXTable: {} })).toThrow(
      'no ifXTable (64-bit counters) in the answer',
    );
  });

  it("maps a neighbour's local port through lldpLocPortId, else the port number as ifIndex", () => {
    const reading = decodeAnswer(
      agentAnswer({
        sysName: 'leaf1',
        upTimeTicks: 1,
        interfaces: [
          { ifIndex: 10, name: 'Ethernet1/1' },
          { ifIndex: 20, name: 'Ethernet1/2' },
        ],
        localPorts: { 1: 'Ethernet1/2' },
        neighbours: [
          { localPortNum: 1, sysName: 'spine1', portId: 'Ethernet7' },
          { localPortNum: 10, sysName: 'host9', portId: '0c:42:a1:00:00:01', portIdSubtype: 3 },
          { localPortNum: 99, sysName: 'ghost', portId: 'x' },
        ],
      }),
    );
    expect(reading.neighbours.map((n) => [n.localIfName, n.sysName, n.portId])).toEqual([
      ['Ethernet1/2', 'spine1', 'Ethernet7'],
      ['Ethernet1/1', 'host9', '0c:42:a1:00:00:01'],
      [null, 'ghost', 'x'],
    ]);
  });
});
