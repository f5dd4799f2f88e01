export {
  PORT_COUNTER_NAMES,
  type PortCounterName,
  type PortCounters,
  type PortCountersDocument,
  type PortEntry,
} from '@fabscope/contracts/ports';
export { DISCARD_FRACTION, SYMBOL_ERRORS_PER_RECOVERY } from './channel-load.ts';
export { type CongestionInput, waitFractions } from './congestion.ts';
export { Accumulator, DATA_UNIT_BYTES, PACKET_PAYLOAD_BYTES } from './counters.ts';
export { createEmulator } from './emulator.ts';
export {
  DEFAULT_SWEEP_DELAY_MS,
  type Emulator,
  type EmulatorJob,
  type EmulatorOptions,
  type FlowFilter,
  type HostLoad,
  type HostPortTelemetry,
  type HostTelemetry,
  type RoutingState,
} from './emulator-types.ts';
export { FAULT_TYPES, type FaultInfo, type FaultRequest, type FaultType } from './faults/faults.ts';
export * as hostLoad from './hosts/host-load.ts';
export { isLoopback } from './http/access.ts';
export { type EmulatorServer, type EmulatorServerOptions, startEmulatorServer } from './http/server.ts';
export { DISCARD_GRACE_MS } from './port-counters.ts';
export { type AdjustContext, adjustRoutes, type RoutedFlow } from './routing/adaptive-routing.ts';
export {
  type AdaptiveRoutingConfig,
  AdaptiveRoutingConfigError,
  ALGORITHM_NAMES,
  adjustmentIntervalMs,
  applyAdaptiveRoutingPatch,
  DEFAULT_ADAPTIVE_ROUTING,
  THRESHOLD_LOAD,
  thresholdLoad,
} from './routing/ar-config.ts';
export { Networks } from './routing/networks.ts';
export { PathFinder } from './routing/paths.ts';
export {
  emulatorForScenario,
  type PhaseResult,
  parseScenarioFile,
  type RunOptions,
  runScenario,
  type ScenarioFile,
  ScenarioFileError,
  type ScenarioPhase,
  type ScenarioResult,
} from './scenario-file.ts';
export { rateText } from './sysfs/class-files.ts';
export { type SysfsWriter, type SysfsWriterOptions, startSysfsWriter } from './sysfs/writer.ts';
export {
  type FlowInfo,
  PATTERNS,
  type Pattern,
  type StartFlowsRequest,
  TrafficError,
  type TrafficItem,
} from './traffic/request.ts';
export * as transport from './traffic/transport.ts';
export { parseDuration, parseRate, parseSize, QuantityError } from './units.ts';
