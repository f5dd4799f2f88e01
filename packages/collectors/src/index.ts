export { EDGE_FAMILIES } from './exposition/edge-exposition.ts';
export { PORT_FAMILIES, portExpositionChunks } from './exposition/port-exposition.ts';
export { SPARSE_TAIL } from './fabric/edge-rates.ts';
export { createFabricRegistry } from './fabric/fabric-registry.ts';
export type { FabricSnapshot, FabricSource, PortSample, TargetResult } from './fabric/port-sample.ts';
export { parseShard, type Shard, shardOfPort, sharedSource } from './fabric/shard.ts';
export { createHostCollector } from './host/host-agent.ts';
export { parseCounter } from './host/reader.ts';
export { MAX_ETHTOOL_STATISTICS, parseEthtoolStatistics } from './host/roce/ethtool-stats.ts';
export { type EthtoolStatistics, ethtoolFromFiles, runEthtool } from './host/roce/roce-collector.ts';
export { pauseStatistic, ROCE_DRIVERS, type RoceDriverName, roceDriverOf } from './host/roce/roce-drivers.ts';
export { parseNodeGuid, parseRate, parseStateLine } from './host/sysfs-infiniband.ts';
export {
  type MetricsServer,
  type ScrapeRequest,
  startMetricsServer,
} from './metrics-server.ts';
export {
  emulatorSource,
  type KeptFixedColumns,
  portSamplesFromEmulator,
  portSamplesFromEmulatorArrow,
} from './sources/emulator/emulator-source.ts';
export { localIbPorts, SYSFS_INFINIBAND } from './sources/infiniband/ib-local-ports.ts';
export {
  IB_PORT_READER_DEFAULTS,
  type IbPortReader,
  type IbPortTarget,
  openIbPortReader,
} from './sources/infiniband/ib-port-reader.ts';
export { runIbPortReaderChild } from './sources/infiniband/ib-port-reader-child.ts';
export {
  type InfinibandReaderKind,
  type InfinibandSourceOptions,
  infinibandSource,
} from './sources/infiniband/infiniband-source.ts';
export { parsePerfquery } from './sources/infiniband/perfquery.ts';
export { perfqueryErrors } from './sources/infiniband/perfquery-reader.ts';
export {
  omnipathSource,
  opaErrors,
  parseOpaTargets,
} from './sources/omnipath/omnipath-source.ts';
export { parseOpapmaquery } from './sources/omnipath/opapmaquery.ts';
export {
  FABRIC_SOURCES,
  type FabricSourceSettings,
  FabricSourceSettingsError,
  openFabricSource,
} from './sources/registry.ts';
export { mapBounded, runTool } from './sources/run-tool.ts';
export type { LldpLink } from './sources/snmp/lldp-links.ts';
export { switchGuid, switchPortOptics } from './sources/snmp/snmp-ports.ts';
export { type SnmpFabricSource, type SnmpSourceOptions, snmpSource } from './sources/snmp/snmp-source.ts';
export type { SwitchReading } from './sources/snmp/snmp-tables.ts';
export { parseSnmpTargets, type SnmpTarget } from './sources/snmp/snmp-targets.ts';
