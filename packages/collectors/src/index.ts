export { ExpositionWriter, escapeLabelValue, formatValue, labelText } from './exposition/writer.ts';
export { EDGE_FAMILIES } from './fabric/edge-exposition.ts';
export { SPARSE_TAIL } from './fabric/edge-rates.ts';
export {
  emulatorSource,
  type KeptFixedColumns,
  portSamplesFromEmulator,
  portSamplesFromEmulatorArrow,
} from './fabric/emulator-source.ts';
export {
  ERROR_COUNTER_KEYS,
  ERROR_COUNTERS,
  type ErrorCounterKey,
  type ErrorCounterSpec,
} from './fabric/error-counters.ts';
export {
  createFabricRegistry,
  type FabricCollectorOptions,
  type FabricRegistry,
  RAW_COUNTERS_AUTO_PORTS,
} from './fabric/fabric-metrics.ts';
export { type IbPort, IbPortMap } from './fabric/ib-discovery.ts';
export {
  type LinkSpeedName,
  linkSpeedName,
  linkWidthLanes,
  PORT_COUNTERS_ERRORS,
  type PortCountersError,
} from './fabric/ib-mad.ts';
export {
  defaultIbPortReaderCommand,
  IB_PORT_READER_DEFAULTS,
  type IbPortReader,
  IbPortReaderError,
  type IbPortReaderOptions,
  type IbPortReading,
  type IbPortSweep,
  type IbPortTarget,
  openIbPortReader,
} from './fabric/ib-port-reader.ts';
export { runIbPortReaderChild } from './fabric/ib-port-reader-child.ts';
export {
  IBNETDISCOVER_ARGS,
  type InfinibandReaderKind,
  type InfinibandSourceOptions,
  ibErrors,
  infinibandSource,
  perfqueryArgs,
  perfqueryErrors,
  portSample,
} from './fabric/infiniband-source.ts';
export {
  type OmnipathSourceOptions,
  type OpaTarget,
  omnipathSource,
  opaErrors,
  opapmaqueryArgs,
  parseOpaTargets,
} from './fabric/omnipath-source.ts';
export { type OpaPortStatus, parseOpapmaquery } from './fabric/opapmaquery.ts';
export { type PerfqueryPort, parsePerfquery } from './fabric/perfquery.ts';
export { arrowFamilies, PortArrowEncoder } from './fabric/port-arrow.ts';
export { PORT_FAMILIES, portExpositionChunks } from './fabric/port-exposition.ts';
export type {
  FabricSnapshot,
  FabricSource,
  PortErrorCounters,
  PortSample,
  TargetResult,
} from './fabric/port-sample.ts';
export { mapBounded, runTool, ToolTimeoutError } from './fabric/run-tool.ts';
export { parseShard, type Shard, ShardError, shardOfPort, sharedSource } from './fabric/shard.ts';
export { createHostCollector, type HostCollector, type HostCollectorOptions } from './host/host-agent.ts';
export { parseNodeGuid, parseRate, parseStateLine } from './host/infiniband.ts';
export { parseCounter } from './host/reader.ts';
export {
  accepts,
  type BinaryAnswer,
  type MetricsServer,
  type ScrapeRequest,
  startMetricsServer,
} from './metrics-server.ts';
