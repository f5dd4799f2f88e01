import type { Fabric } from '@fabscope/topology';
import {
  fabscopeMapping,
  infinibandExporterMapping,
  type MetricsSource,
  nodeExporterMapping,
  type SeriesMapping,
  type TopologyLookup,
} from './series-mapping.ts';
import { snmpExporterMapping } from './snmp-exporter-mapping.ts';

export function topologyLookup(fabric: Fabric): TopologyLookup {
  const guids = new Set<string>();
  for (const node of fabric.nodeByName.values()) guids.add(node.guid.toLowerCase());
  return {
    guidOfNode: (name) => fabric.nodeByName.get(name)?.guid,
    hasGuid: (guid) => guids.has(guid),
  };
}

/** The series mapping FABSCOPE_METRICS_SOURCE selects, joined to this fabric's topology. */
export function seriesMappingFor(
  config: {
    metricsSource: MetricsSource;
    nodeExporterHosts: Map<string, string>;
    devicePorts: Map<string, number>;
  },
  fabric: Fabric,
): SeriesMapping {
  switch (config.metricsSource) {
    case 'node_exporter':
      return nodeExporterMapping(topologyLookup(fabric), {
        hosts: config.nodeExporterHosts,
        devicePorts: config.devicePorts,
      });
    case 'infiniband_exporter':
      return infinibandExporterMapping(topologyLookup(fabric));
    case 'snmp_exporter':
      return snmpExporterMapping(topologyLookup(fabric), { hosts: config.nodeExporterHosts });
    default:
      return fabscopeMapping;
  }
}
