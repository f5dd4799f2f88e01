import {
  type FlowInfo,
  TRAFFIC_PATTERNS,
  type TrafficItem,
  type TrafficPattern,
  type TrafficRequest,
} from '@fabscope/contracts';
import type { FabricNode } from '@fabscope/topology';
import type { Transport } from './transport.ts';

/** The traffic patterns a request may name (the contract's list). */
export const PATTERNS = TRAFFIC_PATTERNS;
export type Pattern = TrafficPattern;

/** `POST /v1/flows` body: one traffic item, or several under `items` (with a job for all of them). */
export type { FlowInfo, TrafficItem, TrafficRequest as StartFlowsRequest };

/** A traffic request the emulator refuses; the message says why. */
export class TrafficError extends Error {
  override name = 'TrafficError';
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
const MAX_JOB_NAME_LENGTH = 128;

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
