import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parsePortsReportLines } from '@fabscope/topology';
import { describe, expect, it } from 'vitest';
import { parseOpapmaquery, parsePerfquery } from '../src/index.ts';
import { FIXTURES } from './helpers.ts';

const fixture = (path: string) => readFileSync(join(FIXTURES, path), 'utf8');

describe('perfquery parser', () => {
  const nonEmpty = readdirSync(join(FIXTURES, 'perfquery')).filter((f) => fixture(`perfquery/${f}`) !== '');
  it.each(nonEmpty)('%s: PortXmitData/PortRcvData × 4 bytes for every port', (file) => {
    const text = fixture(`perfquery/${file}`);
    const ports = parsePerfquery(text).filter((p) => p.attribute.startsWith('PortCounters'));
    const xmit = [...text.matchAll(/^PortXmitData:\.+(\d+)$/gm)].map((m) => BigInt(m[1] as string));
    const rcv = [...text.matchAll(/^PortRcvData:\.+(\d+)$/gm)].map((m) => BigInt(m[1] as string));
    expect(ports.map((p) => p.transmitBytes)).toEqual(xmit.map((w) => w * 4n));
    expect(ports.map((p) => p.receiveBytes)).toEqual(rcv.map((w) => w * 4n));
  });

  it('keeps ports, packets and XmitWait exactly, past 2^53', () => {
    const ports = parsePerfquery(fixture('perfquery/0x98039b0300a1b3d4.out'));
    expect(ports.map((p) => [p.lid, p.port, p.extended])).toEqual([
      [12, 7, true],
      [12, 1, true],
    ]);
    expect(ports[0]?.transmitBytes).toBe(2305843009213693952n * 4n);
    expect(ports[0]?.transmitPackets).toBe(4611686018427387904n);
    expect(ports[1]?.transmitWait).toBe(50n);
    expect(ports[0]?.saturated).toEqual([]);
  });

  it('flags basic 32-bit PortCounters that saturated (they stop, they do not wrap)', () => {
    const [port] = parsePerfquery(fixture('perfquery/basic-saturated.out'));
    expect(port?.extended).toBe(false);
    expect(port?.transmitBytes).toBe(4294967295n * 4n);
    expect(port?.saturated.sort()).toEqual([
      'LinkDownedCounter',
      'PortXmitData',
      'PortXmitPkts',
      'SymbolErrorCounter',
    ]);
  });

  it('reads perfquery -a (AllPortSelect) as the sum of every port, never as a port 255', () => {
    // Both recorded from perfquery -a / -x -a on the ibsim lab (infiniband-diags 44).
    for (const file of ['all-ports.out', 'all-ports-extended.out']) {
      const [sum, ...rest] = parsePerfquery(fixture(`perfquery/${file}`));
      expect(rest).toEqual([]);
      expect(sum?.allPorts).toBe(true);
      expect(sum?.port).toBeNull();
      expect(sum?.lid).toBe(2);
      expect(sum?.transmitBytes).toBeGreaterThan(0n);
    }
    const [one] = parsePerfquery(fixture('perfquery/0x98039b0300a1b3d4.out'));
    expect(one?.allPorts).toBe(false);
  });

  it('refuses empty output (a query that printed nothing) with a ParseError', () => {
    expect(() => parsePerfquery(fixture('perfquery/0x248a070300b26c1e.out'))).toThrow(
      /^perfquery: line 1: no counters block/,
    );
  });
});

describe('opapmaquery getportstatus parser', () => {
  it('reads port-level counters, flits × 8 bytes, and skips per-VL sections', () => {
    const [edge] = parseOpapmaquery(fixture('opapmaquery/edge1-port1.out'));
    expect(edge?.port).toBe(1);
    expect(edge?.transmitBytes).toBe(1500000000123n * 8n);
    expect(edge?.receiveBytes).toBe(987654321n * 8n);
    expect(edge?.transmitPackets).toBe(1464843000n);
    expect(edge?.transmitWait).toBe(4200n);
    expect(edge?.linkQuality).toBe(5);
    expect(edge?.counters['Link Downed']).toBe(1n);
    const [core] = parseOpapmaquery(fixture('opapmaquery/core-port24-vl0.out'));
    expect(core?.transmitBytes).toBe((2n ** 64n - 1n) * 8n);
    expect(core?.transmitPackets).toBe(17n); // not VL 0's 99
    expect(core?.transmitWait).toBe(0n); // not VL 0's 7
  });
});

describe('ibnetdiscover -p parser', () => {
  const lines = parsePortsReportLines(fixture('ibnetdiscover/fabric-p.out'));

  it('skips the stderr line and reads every port line', () => {
    expect(lines).toHaveLength(14);
  });

  it('names both cable ends, trims names, normalizes GUIDs and rates', () => {
    const uplink = lines.find((l) => l.local.guid === '0x98039b0300a1b2c0' && l.local.port === 17);
    expect(uplink?.remote).toEqual({
      type: 'SW',
      lid: 10,
      port: 1,
      guid: '0x98039b0300a1b000',
      name: 'spine-01',
    });
    expect(uplink?.rateBytesPerSecond).toBe(12.5e9);
    const sdr = lines.find((l) => l.local.lid === 12 && l.local.port === 1);
    expect(sdr?.rateBytesPerSecond).toBe(2.5e9 / 8);
    const fdr = lines.find((l) => l.local.port === 33);
    expect(fdr?.remote?.guid).toBe(fdr?.local.guid); // a switch port cabled back to its own switch
    expect(fdr?.rateBytesPerSecond).toBe(7e9);
  });

  it('keeps uncabled ports, with or without a quoted name, without a remote end', () => {
    const open = lines.filter((l) => l.remote === null);
    expect(open.map((l) => [l.local.port, l.local.name, l.rateBytesPerSecond])).toEqual([
      [35, 'leaf-a01', null],
      [36, 'Quantum Mellanox Technologies', 1.25e9],
    ]);
  });
});
