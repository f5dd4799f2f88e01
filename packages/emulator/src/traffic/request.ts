import { type FlowInfo, TRAFFIC_PATTERNS, type TrafficPattern } from '@fabscope/contracts';
import type { FabricNode } from '@fabscope/topology';
import type { Transport } from './transport.ts';

/** The traffic patterns a request may name (the contract's list). */
export const PATTERNS = TRAFFIC_PATTERNS;
export type Pattern = TrafficPattern;

/** Options every traffic item takes (numbers in s, bytes, bytes/s; or strings with units). */
export interface TrafficCommon {
  /** Seconds from now before the flows start. Default 0. */
  start?: number | string;
  /** Seconds the flows run; default until stopped. */
  duration?: number | string;
  /** Message size (bytes); default large messages (RDMA) or 128 KiB writes (iperf). */
  messageSize?: number | string;
  /** Bytes/s each flow asks for; default as fast as its path allows. */
  demand?: number | string;
  /** Default `rdma`, `ip` for iperf and for flows that cross a router. */
  transport?: Transport;
  /** Hosts a collective pattern runs on; default every host of the main network. */
  hosts?: string[];
  /** The job the flows belong to (Slurm's job name); default the request's, else a generated one. */
  job?: string;
}

export type TrafficItem = TrafficCommon &
  (
    | { pattern: 'pairs'; pairs: [string, string][] }
    | { pattern: 'shift'; k: number }
    | { pattern: 'permutation'; seed?: number }
    | { pattern: 'all-to-all' }
    | { pattern: 'incast'; to: string; from?: string[] }
    | { pattern: 'bisection' }
    | { pattern: 'iperf'; from: string; to: string; streams?: number }
    | {
        pattern: 'storage';
        server: string;
        clients?: string[];
        op: 'read' | 'write';
        ioSize?: number | string;
        jobs?: number;
      }
  );

/** `POST /v1/flows` body: one traffic item, or several under `items` (with a job for all of them). */
export type StartFlowsRequest = TrafficItem | { items: TrafficItem[]; job?: string };

export type { FlowInfo };

/** A traffic request the emulator refuses; the message says why. */
export class TrafficError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TrafficError';
  }
}

/** One flow to start, resolved against the fabric. */
export interface FlowSpec {
  from: FabricNode;
  to: FabricNode;
  pattern: Pattern;
  /** Named in the item or request; undefined: the emulator names the request's job. */
  job: string | undefined;
  transport: Transport;
  messageBytes: number | null;
  /** Payload bytes/s: the lowest of demand and per-stream limits; Infinity when unlimited. */
  limit: number;
  startS: number;
  durationS: number;
}

/** Longest job name taken (Slurm allows more; nobody reads more on a dashboard). */
export const MAX_JOB_NAME_LENGTH = 128;

/** The job name of an item or request, checked; undefined when none is given. */
export function jobName(value: unknown, fail: (message: string) => never): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || value.trim() === '' || value.length > MAX_JOB_NAME_LENGTH) {
    return fail(`job must be a non-empty name of at most ${MAX_JOB_NAME_LENGTH} characters`);
  }
  // Control characters would break the text outputs (logs, Prometheus labels) that show job names.
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if (code < 0x20 || code === 0x7f) return fail('job must not contain control characters');
  }
  return value;
}
