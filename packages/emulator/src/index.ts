export { type AdjustContext, adjustRoutes, type RoutedFlow } from './adaptive-routing.ts';
export {
  type AdaptiveRoutingConfig,
  AdaptiveRoutingConfigError,
  ALGORITHM_NAMES,
  adjustmentIntervalMs,
  applyAdaptiveRoutingPatch,
  DEFAULT_ADAPTIVE_ROUTING,
  THRESHOLD_LOAD,
  thresholdLoad,
} from './ar-config.ts';
export { PAYLOAD_EFFICIENCY, payloadCapacities } from './capacity.ts';
export { type CongestionInput, waitFractions } from './congestion.ts';
export { Accumulator, ChannelCounters, DATA_UNIT_BYTES, PACKET_PAYLOAD_BYTES } from './counters.ts';
export {
  createEmulator,
  DEFAULT_SWEEP_DELAY_MS,
  DISCARD_GRACE_MS,
  type Emulator,
  type EmulatorOptions,
  type HealthDocument,
  type HostLoad,
  type HostPortTelemetry,
  type HostTelemetry,
} from './emulator.ts';
export { FAULT_TYPES, type FaultInfo, type FaultRequest, type FaultType } from './faults.ts';
export {
  derangement,
  type FlowInfo,
  PATTERNS,
  type Pattern,
  type StartFlowsRequest,
  TrafficError,
  type TrafficItem,
} from './flows.ts';
export * as hostLoad from './host-load.ts';
export { type MaxMinProblem, maxMinFair } from './maxmin.ts';
export { Networks } from './networks.ts';
export { PathFinder } from './paths.ts';
export {
  PORT_COUNTER_NAMES,
  type PortCounterName,
  type PortCounters,
  type PortCountersDocument,
  type PortEntry,
} from './ports-document.ts';
export { mulberry32, type Random } from './prng.ts';
export {
  emulatorForScenario,
  type PhaseResult,
  parseScenarioFile,
  type RunOptions,
  routingFor,
  runScenario,
  type ScenarioFile,
  ScenarioFileError,
  type ScenarioPhase,
  type ScenarioResult,
} from './scenario-file.ts';
export {
  type EmulatorServer,
  type EmulatorServerOptions,
  isLoopback,
  startEmulatorServer,
} from './server.ts';
export { rateText, type SysfsWriter, type SysfsWriterOptions, startSysfsWriter } from './sysfs.ts';
export * as transport from './transport.ts';
export { parseDuration, parseRate, parseSize, QuantityError } from './units.ts';
