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
export { ChannelCounters, DATA_UNIT_BYTES, PACKET_PAYLOAD_BYTES } from './counters.ts';
export { createEmulator, type Emulator, type EmulatorOptions, type HealthDocument } from './emulator.ts';
export { type FlowInfo, type StartFlowsRequest, TrafficError } from './flows.ts';
export { type MaxMinProblem, maxMinFair } from './maxmin.ts';
export { PathFinder } from './paths.ts';
export type { PortCountersDocument, PortEntry } from './ports-document.ts';
export { mulberry32, type Random } from './prng.ts';
export { type EmulatorServer, type EmulatorServerOptions, startEmulatorServer } from './server.ts';
