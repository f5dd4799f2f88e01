import type {
  EmulatorHealth,
  EmulatorJob,
  FaultInfo,
  FlowFilter,
  HostLoad,
  RoutingState,
} from '@fabscope/contracts';
import type { PortCountersDocument } from '@fabscope/contracts/ports';
import type { Fabric, FabricType, ForwardingTables } from '@fabscope/topology';
import type { AdaptiveRoutingConfig } from './routing/ar-config.ts';
import type { FlowInfo, StartFlowsRequest } from './traffic/request.ts';

export type { EmulatorHealth, EmulatorJob, FlowFilter, HostLoad, RoutingState };

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
  /** A real subnet manager routes (demo:ibsim): no sweeps, new tables through `useTables`. */
  externalRouting?: boolean;
}

export const DEFAULT_SWEEP_DELAY_MS = 10_000;

/** One port of a host or router as its own kernel sees it (bytes, not PM units). */
export interface HostPortTelemetry {
  portNumber: number;
  guid: string;
  lid: number;
  rateGbps: number;
  network: FabricType;
  linkUp: boolean;
  /** Cumulative since the device started or its counters were cleared, in PORT_COUNTER_NAMES order (data in bytes). */
  counters: bigint[];
  /** IP traffic through the port's network interface since the host booted: tx bytes, rx bytes, tx pkts, rx pkts. */
  ip: bigint[];
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

export interface Emulator {
  readonly fabric: Fabric;
  nowMs(): number;
  /** Moves the virtual clock forward: counters, flow starts and ends, faults, sweeps, adaptive routing. */
  advance(ms: number): void;
  /** Starts the flows of a traffic request (any pattern); returns them. Throws TrafficError. */
  startFlows(request: StartFlowsRequest): FlowInfo[];
  /** The flows, or those matching `filter` (a filter naming an unknown link matches none). */
  listFlows(filter?: FlowFilter): FlowInfo[];
  /** Changes whenever listFlows' answer may, so paged listings can tell a stale page. */
  flowsVersion(): number;
  /** Jobs: the flows grouped by job name, in the order their first flow started. */
  listJobs(): EmulatorJob[];
  stopAllFlows(): void;
  getAdaptiveRouting(): AdaptiveRoutingConfig;
  /** Applies a partial update; throws AdaptiveRoutingConfigError on invalid input. */
  setAdaptiveRouting(patch: Partial<AdaptiveRoutingConfig>): AdaptiveRoutingConfig;
  /** Takes a link (`a/port--b/port`) down or back up. Throws TrafficError for an unknown link. */
  setLinkState(linkId: string, state: 'active' | 'down'): void;
  /** The subnet manager's new tables (with `externalRouting`): every flow's static path follows them. */
  useTables(tables: ForwardingTables): void;
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
  /** `portCounters()` as one Apache Arrow IPC stream (ports-arrow.ts; `GET /v1/ports?format=arrow`). */
  portCountersArrow(): Uint8Array;
  hostLoads(): HostLoad[];
  hostTelemetry(): HostTelemetry[];
  health(): EmulatorHealth;
}
