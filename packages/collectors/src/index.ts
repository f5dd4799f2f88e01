export { emulatorSource, portSamplesFromEmulator } from './fabric/emulator-source.ts';
export { createFabricRegistry, type FabricCollectorOptions } from './fabric/fabric-metrics.ts';
export type { FabricSnapshot, FabricSource, PortSample } from './fabric/port-sample.ts';
export { type MetricsServer, startMetricsServer } from './metrics-server.ts';
