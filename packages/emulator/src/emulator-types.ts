import type { Fabric, FabricType, ForwardingTables } from '@fabscope/topology';
import type { LosslessPortCounters } from './lossless-counters.ts';

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
  /** An Ethernet port's PFC pause, ECN and CNP counters (its RoCE NIC's `hw_counters` and `ethtool -S`). */
  lossless?: LosslessPortCounters;
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
