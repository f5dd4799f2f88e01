import type { Fabric, FabricType, ForwardingTables } from '@fabscope/topology';
import type { AdaptiveRoutingConfig } from './ar-config.ts';
import type { FaultInfo } from './faults.ts';
import type { FlowInfo, StartFlowsRequest } from './flows.ts';
import type { PortCountersDocument } from './ports-document.ts';

// What the emulator is to its users (the HTTP server, the sysfs writer, scenario runs, tests).

export interface EmulatorOptions {
  fabric: Fabric;
  tables: ForwardingTables;
  /** Seeds every random choice (adaptive routing, permutations without a seed). Default 1. */
  seed?: number;
  /** Clock value at creation; pass Date.now() for real-time mode. Default 0. */
  startTimeMs?: number;
  /** The fabric manager's routing engine, rerun on the surviving fabric at each sweep. Default fat-tree. */
  routing?: (fabric: Fabric) => ForwardingTables;
  /** Time from a link change to the fabric manager's sweep that rewrites static routes. Default 10 s. */
  sweepDelayMs?: number;
}

export const DEFAULT_SWEEP_DELAY_MS = 10_000;

/** What the fabric manager's last sweep routed with (`GET /v1/routing`). */
export interface RoutingState {
  /** Sweeps since the emulator started; 0 while the initial tables stand. */
  sweep: number;
  /** Engine of the current tables (`tables.engine`; `minhop-fallback` when the engine gave up). */
  engine: string;
  /** Links (`a/port--b/port`) that were down at the last sweep, so absent from its tables. */
  downLinks: string[];
  /** Emulator clock at the last sweep; null before the first. */
  sweptAtMs: number | null;
}

export interface HealthDocument {
  status: 'ok';
  fabric: string;
  fabricType: FabricType;
  timeMs: number;
}

/** One port of a host or router as its own kernel sees it (bytes, not PM units). */
export interface HostPortTelemetry {
  portNumber: number;
  guid: string;
  lid: number;
  rateGbps: number;
  network: FabricType;
  linkUp: boolean;
  /** Cumulative since the device started or its counters were cleared. */
  xmitBytes: bigint;
  rcvBytes: bigint;
  xmitPkts: bigint;
  rcvPkts: bigint;
  xmitWait: bigint;
  symbolErrors: bigint;
  linkErrorRecovery: bigint;
  linkDowned: bigint;
  rcvErrors: bigint;
  xmitDiscards: bigint;
  /** IP traffic through the port's network interface, since the host booted. */
  ipTxBytes: bigint;
  ipRxBytes: bigint;
  ipTxPkts: bigint;
  ipRxPkts: bigint;
}

export interface HostTelemetry {
  name: string;
  type: 'host' | 'router';
  guid: string;
  description: string;
  bootTimeMs: number;
  /** CPU-seconds spent busy (all CPUs) since boot, and the current busy share of all CPUs. */
  cpuBusySeconds: number;
  cpuBusyFraction: number;
  memoryUsedFraction: number;
  /** Payload bytes/s the node forwards between networks (routers). */
  forwardedBytesPerSecond: number;
  ports: HostPortTelemetry[];
}

/** Live load of a host or router (GET /v1/hosts). */
export interface HostLoad {
  name: string;
  type: 'host' | 'router';
  cpuUtilization: number;
  memoryUtilization: number;
  forwardedBytesPerSecond: number;
  transmitBytesPerSecond: number;
  receiveBytesPerSecond: number;
}

export interface Emulator {
  readonly fabric: Fabric;
  nowMs(): number;
  /** Moves the virtual clock forward: counters, flow starts and ends, faults, sweeps, adaptive routing. */
  advance(ms: number): void;
  /** Starts the flows of a traffic request (any pattern); returns them. Throws TrafficError. */
  startFlows(request: StartFlowsRequest): FlowInfo[];
  listFlows(): FlowInfo[];
  stopAllFlows(): void;
  getAdaptiveRouting(): AdaptiveRoutingConfig;
  /** Applies a partial update; throws AdaptiveRoutingConfigError on invalid input. */
  setAdaptiveRouting(patch: Partial<AdaptiveRoutingConfig>): AdaptiveRoutingConfig;
  /** Takes a link (`a/port--b/port`) down or back up. Throws TrafficError for an unknown link. */
  setLinkState(linkId: string, state: 'active' | 'down'): void;
  /** Injects a fault (link down/up, flap, symbol errors, switch down/up, restart, counter clear). */
  injectFault(request: unknown): FaultInfo;
  /** Active faults: links held down, flapping links, symbol-error sources, switches down. */
  listFaults(): FaultInfo[];
  /** Repairs everything: every link and switch up, flapping and symbol errors stopped. */
  clearFaults(): void;
  readonly sweepDelayMs: number;
  /** The fabric manager's current routing: sweep count, engine, links it routed around. */
  routingState(): RoutingState;
  portCounters(): PortCountersDocument;
  /** `portCounters()` as JSON text in chunks, written without building the document (`GET /v1/ports`). */
  portCountersJson(): Buffer[];
  hostLoads(): HostLoad[];
  hostTelemetry(): HostTelemetry[];
  health(): HealthDocument;
}
