export { EDGE_FAMILIES } from './exposition/edge-exposition.ts';
export { arrowFamilies } from './exposition/port-arrow.ts';
export { PORT_FAMILIES, portExpositionChunks } from './exposition/port-exposition.ts';
export { formatValue } from './exposition/writer.ts';
export { SPARSE_TAIL } from './fabric/edge-rates.ts';
export { ERROR_COUNTER_KEYS, ERROR_COUNTERS } from './fabric/error-counters.ts';
export {
  createFabricRegistry,
  type FabricCollectorOptions,
  type FabricRegistry,
} from './fabric/fabric-registry.ts';
export type { FabricSnapshot, FabricSource, PortSample } from './fabric/port-sample.ts';
export { parseShard, type Shard, ShardError, shardOfPort, sharedSource } from './fabric/shard.ts';
export { createHostCollector, type HostCollectorOptions } from './host/host-agent.ts';
export { parseCounter } from './host/reader.ts';
export { parseNodeGuid, parseRate, parseStateLine } from './host/sysfs-infiniband.ts';
export {
  accepts,
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
export {
  IB_PORT_READER_DEFAULTS,
  type IbPortReader,
  type IbPortReaderOptions,
  type IbPortTarget,
  openIbPortReader,
} from './sources/infiniband/ib-port-reader.ts';
export { runIbPortReaderChild } from './sources/infiniband/ib-port-reader-child.ts';
export { portSample } from './sources/infiniband/ib-port-sample.ts';
export {
  type InfinibandReaderKind,
  type InfinibandSourceOptions,
  infinibandSource,
} from './sources/infiniband/infiniband-source.ts';
export { parsePerfquery } from './sources/infiniband/perfquery.ts';
export { perfqueryErrors } from './sources/infiniband/perfquery-reader.ts';
export {
  type OmnipathSourceOptions,
  omnipathSource,
  opaErrors,
  parseOpaTargets,
} from './sources/omnipath/omnipath-source.ts';
export { parseOpapmaquery } from './sources/omnipath/opapmaquery.ts';
export {
  FABRIC_SOURCES,
  type FabricSourceSettings,
  FabricSourceSettingsError,
  type OpenedFabricSource,
  openFabricSource,
} from './sources/registry.ts';
export { mapBounded, runTool } from './sources/run-tool.ts';
