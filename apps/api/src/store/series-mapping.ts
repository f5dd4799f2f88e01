import { type ErrorField, PORT_SERIES } from '@fabscope/contracts';
import { normalizeGuid } from '@fabscope/topology';
import { portKey } from '../lib/port-rates.ts';
import { type CounterField, PORT_COUNTERS } from './types.ts';

/** Which exporter's series the API reads counters from (FABSCOPE_METRICS_SOURCE). */
export type MetricsSource = 'fabscope' | 'node_exporter' | 'infiniband_exporter' | 'snmp_exporter';

export interface SeriesSample {
  name: string;
  labels: Record<string, string>;
  /** Where the sample came from: the scraped target's host:port, or Prometheus' `instance` label. */
  instance?: string | undefined;
}

/** Resolves a counter sample to the topology port it measures (`portKey`), or null. */
export type PortResolver = (sample: SeriesSample) => string | null;

/**
 * How one exporter's series map to fabscope's port counters (docs/metrics.md, "Existing exporters as sources"): which
 * metric names carry each counter, which extra series are needed to join them to the topology, and the join itself.
 */
export interface SeriesMapping {
  readonly source: MetricsSource;
  /** Data, packet and wait counters always; error counters and gauges where the exporter has them. */
  readonly fields: Readonly<Record<Exclude<CounterField, ErrorField>, readonly string[]>> &
    Readonly<Partial<Record<ErrorField, readonly string[]>>>;
  /** Series read alongside the counters to join them to the topology (e.g. uplink info). */
  readonly joinMetrics: readonly string[];
  /** Link rate gauges (bytes/s), used to reject impossible rates; may be empty. */
  readonly rateMetrics: readonly string[];
  /** Gauges of the XmitWait tick length in seconds (wait fraction = ticks/s × this); may be empty. */
  readonly waitTickMetrics: readonly string[];
  /**
   * Link-state gauges and the value that means "active" (fabscope_port_link_up 1,
   * node_infiniband_state_id 4 = ACTIVE); any other value is down. May be empty (unknown).
   */
  readonly linkUpMetrics: Readonly<Record<string, number>>;
  /** Gauges of the port's IBA PortPhysicalState (1..7, 5 LinkUp), where the exporter has one. */
  readonly physicalStateMetrics?: readonly string[];
  /**
   * The exporter answers `GET /metrics?name[]=a&name[]=b` with those families only (fabscope's
   * fabric agent), so the embedded store asks for the ones it reads and not the rest.
   */
  readonly selectsByName?: boolean;
  resolver(joinSamples: readonly SeriesSample[]): PortResolver;
}

export interface TopologyLookup {
  /** GUID of a topology node by name. */
  guidOfNode(name: string): string | undefined;
  /** Whether a node GUID (0x + 16 lower-case hex digits) is in the topology. */
  hasGuid(guid: string): boolean;
}

export interface MappingOptions {
  /** node_exporter: `instance` (host:port) → topology node name; default the instance's host part. */
  hosts?: ReadonlyMap<string, string>;
  /** node_exporter: `device:port` (InfiniBand) or `device` (netdev) → topology port number. */
  devicePorts?: ReadonlyMap<string, number>;
}

const FABSCOPE_FIELDS = Object.fromEntries(
  (Object.keys(PORT_COUNTERS) as CounterField[]).map((f) => [f, [PORT_COUNTERS[f]]]),
) as unknown as Record<CounterField, readonly string[]>;

export const fabscopeMapping: SeriesMapping = {
  source: 'fabscope',
  fields: FABSCOPE_FIELDS,
  joinMetrics: [],
  rateMetrics: [PORT_SERIES.rateBytesPerSecond],
  waitTickMetrics: [PORT_SERIES.waitTickSeconds],
  linkUpMetrics: { [PORT_SERIES.linkUp]: 1 },
  physicalStateMetrics: [PORT_SERIES.physicalState],
  selectsByName: true,
  resolver: () => (s) => {
    const { node_guid: guid, port } = s.labels;
    return guid && port ? portKey(guid, port) : null;
  },
};

/**
 * node_exporter on each host: `node_infiniband_*{device,port}` (and `node_network_*{device}` for
 * interfaces listed in devicePorts), joined to the topology by host → node, device/port → port.
 */
export function nodeExporterMapping(topology: TopologyLookup, options: MappingOptions = {}): SeriesMapping {
  const hostOf = (instance: string | undefined): string | undefined => {
    if (!instance) return undefined;
    return options.hosts?.get(instance) ?? instance.replace(/^\[?([^\]]*?)\]?(:\d+)?$/, '$1');
  };
  return {
    source: 'node_exporter',
    fields: {
      transmitBytes: [
        'node_infiniband_port_data_transmitted_bytes_total',
        'node_network_transmit_bytes_total',
      ],
      receiveBytes: ['node_infiniband_port_data_received_bytes_total', 'node_network_receive_bytes_total'],
      transmitPackets: [
        'node_infiniband_port_packets_transmitted_total',
        'node_network_transmit_packets_total',
      ],
      receivePackets: ['node_infiniband_port_packets_received_total', 'node_network_receive_packets_total'],
      transmitWait: ['node_infiniband_port_transmit_wait_total'],
      // node_exporter's names for the PortCounters error fields (collector/infiniband_linux.go).
      symbolErrors: ['node_infiniband_symbol_error_total'],
      linkErrorRecovery: ['node_infiniband_link_error_recovery_total'],
      linkDowned: ['node_infiniband_link_downed_total'],
      receiveErrors: ['node_infiniband_port_errors_received_total'],
      transmitDiscards: ['node_infiniband_port_discards_transmitted_total'],
      receiveRemotePhysicalErrors: ['node_infiniband_port_receive_remote_physical_errors_total'],
      receiveSwitchRelayErrors: ['node_infiniband_port_receive_switch_relay_errors_total'],
      transmitConstraintErrors: ['node_infiniband_port_constraint_errors_transmitted_total'],
      receiveConstraintErrors: ['node_infiniband_port_constraint_errors_received_total'],
      localLinkIntegrityErrors: ['node_infiniband_local_link_integrity_errors_total'],
      excessiveBufferOverrunErrors: ['node_infiniband_excessive_buffer_overrun_errors_total'],
      vl15Dropped: ['node_infiniband_vl15_dropped_total'],
    },
    joinMetrics: [],
    rateMetrics: ['node_infiniband_rate_bytes_per_second', 'node_network_speed_bytes'],
    // The kernel does not say how long a PortXmitWait tick is: the fraction stays unknown.
    waitTickMetrics: [],
    // IB port state 4 is ACTIVE; node_network_up is 1 for an interface that is up.
    linkUpMetrics: { node_infiniband_state_id: 4, node_network_up: 1 },
    // sysfs phys_state's number: IBA PortPhysicalState (5 LinkUp).
    physicalStateMetrics: ['node_infiniband_physical_state_id'],
    resolver: () => (s) => {
      const host = hostOf(s.instance ?? s.labels.instance);
      const guid = host === undefined ? undefined : topology.guidOfNode(host);
      const device = s.labels.device;
      if (!guid || !device) return null;
      // InfiniBand series carry a port label (rate() drops metric names, labels stay).
      const port = s.labels.port;
      if (port) return portKey(guid, options.devicePorts?.get(`${device}:${port}`) ?? port);
      // Interfaces count only when mapped: a host has many (lo, docker0, bonds) and one fabric port.
      const mapped = options.devicePorts?.get(device);
      return mapped === undefined ? null : portKey(guid, mapped);
    },
  };
}

/** treydock/infiniband_exporter: `infiniband_{switch,hca}_port_*{guid,port}` are keyed by the node GUID directly. */
export function infinibandExporterMapping(topology: TopologyLookup): SeriesMapping {
  const names = (what: string) => ['switch', 'hca'].map((kind) => `infiniband_${kind}_port_${what}`);
  return {
    source: 'infiniband_exporter',
    fields: {
      transmitBytes: names('transmit_data_bytes_total'),
      receiveBytes: names('receive_data_bytes_total'),
      transmitPackets: names('transmit_packets_total'),
      receivePackets: names('receive_packets_total'),
      transmitWait: names('transmit_wait_total'),
      symbolErrors: names('symbol_error_total'),
      linkErrorRecovery: names('link_error_recovery_total'),
      linkDowned: names('link_downed_total'),
      receiveErrors: names('receive_errors_total'),
      transmitDiscards: names('transmit_discards_total'),
      receiveRemotePhysicalErrors: names('receive_remote_physical_errors_total'),
      receiveSwitchRelayErrors: names('receive_switch_relay_errors_total'),
      transmitConstraintErrors: names('transmit_constraint_errors_total'),
      receiveConstraintErrors: names('receive_constraint_errors_total'),
      localLinkIntegrityErrors: names('local_link_integrity_errors_total'),
      excessiveBufferOverrunErrors: names('excessive_buffer_overrun_errors_total'),
      vl15Dropped: names('vl15_dropped_total'),
    },
    joinMetrics: ['infiniband_switch_uplink_info', 'infiniband_hca_uplink_info'],
    rateMetrics: [],
    waitTickMetrics: [],
    linkUpMetrics: {},
    resolver(joinSamples) {
      const byGuid = new Map<string, string>();
      for (const s of joinSamples) {
        const guid = s.labels.guid;
        const name = s.labels.switch ?? s.labels.hca;
        if (guid && name) byGuid.set(normalizeGuid(guid), name.trim());
      }
      return (s) => {
        const { guid, port } = s.labels;
        if (!guid || !port) return null;
        const normalized = normalizeGuid(guid);
        if (topology.hasGuid(normalized)) return portKey(normalized, port);
        const name = byGuid.get(normalized);
        const byName = name === undefined ? undefined : topology.guidOfNode(name);
        return byName ? portKey(byName, port) : null;
      };
    },
  };
}

/** Whether a link-state gauge sample means "active", or null when the metric is not one. */
export function linkUpOf(mapping: SeriesMapping, name: string, value: number): boolean | null {
  const active = Object.hasOwn(mapping.linkUpMetrics, name) ? mapping.linkUpMetrics[name] : undefined;
  if (active === undefined || !Number.isFinite(value)) return null;
  return value === active;
}
