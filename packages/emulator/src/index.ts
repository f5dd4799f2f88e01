export {
  PORT_COUNTER_NAMES,
  type PortCounterName,
  type PortCounters,
  type PortCountersDocument,
} from '@fabscope/contracts/ports';
export { DISCARD_FRACTION } from './channel-load.ts';
export { Accumulator, PACKET_PAYLOAD_BYTES } from './counters.ts';
export { createEmulator, type Emulator } from './emulator.ts';
export type { EmulatorOptions } from './emulator-types.ts';
export { isLoopback } from './http/access.ts';
export { type EmulatorServer, type EmulatorServerOptions, startEmulatorServer } from './http/server.ts';
export { DISCARD_GRACE_MS } from './port-counters.ts';
export {
  AdaptiveRoutingConfigError,
  adjustmentIntervalMs,
  applyAdaptiveRoutingPatch,
  DEFAULT_ADAPTIVE_ROUTING,
  thresholdLoad,
} from './routing/ar-config.ts';
export {
  emulatorForScenario,
  type PhaseResult,
  parseScenarioFile,
  type RunOptions,
  runScenario,
  type ScenarioFile,
  ScenarioFileError,
  type ScenarioResult,
} from './scenario-file.ts';
export { rateText } from './sysfs/class-files.ts';
export { type SysfsWriter, type SysfsWriterOptions, startSysfsWriter } from './sysfs/writer.ts';
export { TrafficError } from './traffic/request.ts';
export * as transport from './traffic/transport.ts';
export { parseRate, parseSize } from './units.ts';
