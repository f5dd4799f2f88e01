export {
  PORT_COUNTER_NAMES,
  type PortCounterName,
  type PortCountersDocument,
} from '@fabscope/contracts/ports';
export { Accumulator, PACKET_PAYLOAD_BYTES } from './counters.ts';
export { createEmulator, type Emulator } from './emulator.ts';
export { isLoopback } from './http/access.ts';
export { type EmulatorServer, startEmulatorServer } from './http/server.ts';
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
  runScenario,
  ScenarioFileError,
} from './scenario-file.ts';
export { withLosslessTraffic } from './snmp/lossless-traffic.ts';
export {
  carriedOn,
  recordingTargets,
  type SnmpRecorder,
  type SnmpRecorderOptions,
  startSnmpRecorder,
  trafficBetween,
  trafficChanged,
  writeRecordings,
} from './snmp/recordings.ts';
export {
  chassisMac,
  hostPortName,
  type LosslessTraffic,
  type PortTraffic,
  switchPortName,
  switchRecording,
} from './snmp/snmprec.ts';
export { rateText } from './sysfs/class-files.ts';
export { startSysfsWriter } from './sysfs/writer.ts';
export { TrafficError } from './traffic/request.ts';
export * as transport from './traffic/transport.ts';
export { parseRate, parseSize } from './units.ts';
