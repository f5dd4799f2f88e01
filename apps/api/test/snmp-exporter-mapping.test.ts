import { describe, expect, it } from 'vitest';
import { portKey } from '../src/lib/port-rates.ts';
import { EmbeddedStore } from '../src/store/embedded.ts';
import { snmpExporterMapping } from '../src/store/snmp-exporter-mapping.ts';

const GUIDS: Record<string, string> = { leafA: '0x0000000000000a01', leafB: '0x0000000000000b01' };
const EXPORTER = 'http://exporter:9116/snmp';

/** An if_mib page as snmp_exporter prints it: ifIndex 1 and 3 Ethernet, 2 a loopback; `bytes` out per port. */
function page(names: string[], bytes: (ifIndex: number) => number): string {
  const ports: [number, string][] = [
    [1, 'ethernetCsmacd'],
    [2, 'softwareLoopback'],
    [3, 'ethernetCsmacd'],
  ];
  const labels = (i: number) => `ifDescr="Ethernet${i}",ifIndex="${i}",ifName="Ethernet${i}"`;
  return [
    '# TYPE ifHCOutOctets counter',
    ...ports.map(([i]) => `ifHCOutOctets{${labels(i)}} ${bytes(i)}`),
    '# TYPE ifOperStatus gauge',
    ...ports.map(([i]) => `ifOperStatus{${labels(i)}} 1`),
    '# TYPE ifType_info gauge',
    ...ports.map(([i, t]) => `ifType_info{${labels(i)},ifType="${t}"} 1`),
    ...names,
    '',
  ].join('\n');
}

describe('snmp_exporter series as a source', () => {
  it('keeps two switches behind one exporter apart by target, numbering only their Ethernet ports', async () => {
    let now = 1_000_000;
    let step = 0;
    const pages: Record<string, (s: number) => string> = {
      // Named by its LLDP name, as the SNMP source names it, over sysName.
      '10.0.0.1': (s) =>
        page(
          ['sysName{sysName="a.example"} 1', 'lldpLocSysName{lldpLocSysName="leafA"} 1'],
          (i) => 1e9 + s * i * 1e6,
        ),
      // No names in its page: FABSCOPE_NODE_EXPORTER_HOSTS maps its target.
      '10.0.0.2': (s) => page([], (i) => 5e9 + s * i * 2e6),
    };
    const store = new EmbeddedStore({
      targets: Object.keys(pages).map((t) => `${EXPORTER}?target=${t}&module=if_mib`),
      mapping: snmpExporterMapping(
        { guidOfNode: (name) => GUIDS[name], hasGuid: () => false },
        { hosts: new Map([['10.0.0.2', 'leafB']]) },
      ),
      now: () => now,
      fetch: (async (url: string) => {
        const target = new URL(String(url)).searchParams.get('target') as string;
        return new Response(pages[target]?.(step) ?? '', { status: 200 });
      }) as typeof fetch,
    });
    await store.scrapeOnce();
    now += 1000;
    step = 1;
    await store.scrapeOnce();
    const rates = (await store.rates()).ports;
    await store.close();
    expect([...rates.keys()].sort()).toEqual(
      [
        portKey(GUIDS.leafA as string, 1),
        portKey(GUIDS.leafA as string, 2),
        portKey(GUIDS.leafB as string, 1),
        portKey(GUIDS.leafB as string, 2),
      ].sort(),
    );
    // ifIndex 3 is the second Ethernet port: the loopback between them is no port.
    expect(rates.get(portKey(GUIDS.leafA as string, 2))).toMatchObject({
      transmitBytesPerSecond: 3e6,
      linkUp: true,
    });
    expect(rates.get(portKey(GUIDS.leafB as string, 2))?.transmitBytesPerSecond).toBe(6e6);
    expect(rates.get(portKey(GUIDS.leafB as string, 1))?.transmitBytesPerSecond).toBe(2e6);
  });
});
