import { portKey } from '../lib/port-rates.ts';
import type { MappingOptions, SeriesMapping, SeriesSample, TopologyLookup } from './series-mapping.ts';

/**
 * ifTypes of Ethernet ports (6, 62, 117), by name or by number as `ifType_info` labels them: the SNMP source
 * (packages/collectors/src/sources/snmp/snmp-tables.ts) numbers these 1.. in ifIndex order, and so does this.
 */
const ETHERNET_IF_TYPES = new Set(['ethernetCsmacd', 'fastEther', 'gigabitEthernet', '6', '62', '117']);

/** The families this mapping joins on: each port's ifType (EnumAsInfo: in a label), the device's names. */
const JOIN = { ifType: 'ifType_info', sysName: 'sysName', lldpLocSysName: 'lldpLocSysName' } as const;

interface Device {
  name?: string;
  /** Ethernet ifIndexes in order; their place + 1 is the port number. */
  ethernet: number[];
}

/** The device a sample came from: snmp_exporter's target (`instance` as Prometheus relabels it). */
function instanceOf(s: SeriesSample): string | undefined {
  return s.instance ?? s.labels.instance;
}

/** Per instance: its name as the SNMP source names it (lldpLocSysName, else sysName) and its Ethernet ifIndexes. */
function devicesOf(joinSamples: readonly SeriesSample[]): Map<string, Device> {
  const devices = new Map<string, Device & { sysName?: string; lldpName?: string }>();
  const deviceOf = (instance: string) => {
    const known = devices.get(instance);
    if (known) return known;
    const d: Device & { sysName?: string; lldpName?: string } = { ethernet: [] };
    devices.set(instance, d);
    return d;
  };
  for (const s of joinSamples) {
    const instance = instanceOf(s);
    if (instance === undefined) continue;
    const d = deviceOf(instance);
    if (s.name === JOIN.sysName && s.labels.sysName) d.sysName = s.labels.sysName;
    else if (s.name === JOIN.lldpLocSysName && s.labels.lldpLocSysName) d.lldpName = s.labels.lldpLocSysName;
    else if (s.name === JOIN.ifType) {
      const index = Number(s.labels.ifIndex);
      if (Number.isInteger(index) && ETHERNET_IF_TYPES.has(s.labels.ifType ?? '')) d.ethernet.push(index);
    }
  }
  for (const d of devices.values()) {
    d.ethernet.sort((a, b) => a - b);
    const name = d.lldpName ?? d.sysName;
    if (name !== undefined) d.name = name;
  }
  return devices;
}

/**
 * Prometheus' snmp_exporter, module `if_mib` (deploy/snmp-exporter/snmp.yml): IF-MIB's 64-bit counters per
 * `ifIndex`, joined to the topology as the SNMP source names ports: the switch by `hosts` (instance → node), else
 * its lldpLocSysName or sysName; the port by its place among the switch's Ethernet interfaces in ifIndex order.
 */
export function snmpExporterMapping(topology: TopologyLookup, options: MappingOptions = {}): SeriesMapping {
  return {
    source: 'snmp_exporter',
    fields: {
      transmitBytes: ['ifHCOutOctets'],
      receiveBytes: ['ifHCInOctets'],
      transmitPackets: ['ifHCOutUcastPkts'],
      receivePackets: ['ifHCInUcastPkts'],
      // IF-MIB has no transmit wait: the congestion share comes from PFC/ECN counters, not from here.
      transmitWait: [],
      // As the SNMP source reads them: ifInErrors as receive errors, ifOutDiscards as transmit discards.
      receiveErrors: ['ifInErrors'],
      transmitDiscards: ['ifOutDiscards'],
    },
    joinMetrics: [JOIN.ifType, JOIN.sysName, JOIN.lldpLocSysName],
    // ifHighSpeed is in Mb/s, not bytes/s: the link rate comes from the topology.
    rateMetrics: [],
    waitTickMetrics: [],
    // ifOperStatus 1 is up(1); down, testing, dormant, notPresent and lowerLayerDown are not.
    linkUpMetrics: { ifOperStatus: 1 },
    resolver(joinSamples) {
      const devices = devicesOf(joinSamples);
      const guids = new Map<string, string | null>();
      const guidOf = (instance: string): string | null => {
        let guid = guids.get(instance);
        if (guid === undefined) {
          const name = options.hosts?.get(instance) ?? devices.get(instance)?.name;
          guid = (name === undefined ? undefined : topology.guidOfNode(name)) ?? null;
          guids.set(instance, guid);
        }
        return guid;
      };
      return (s) => {
        const instance = instanceOf(s);
        const index = Number(s.labels.ifIndex);
        if (instance === undefined || !Number.isInteger(index)) return null;
        const guid = guidOf(instance);
        const port = devices.get(instance)?.ethernet.indexOf(index) ?? -1;
        return guid === null || port < 0 ? null : portKey(guid, port + 1);
      };
    },
  };
}
