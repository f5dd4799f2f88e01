import { GnmiPortTable } from './gnmi-port-table.ts';
import type { GnmiSubscribeRequest, GnmiSubscribeResponse } from './gnmi-proto.ts';

/** Time as the stream sees it: the system's, or a test's. */
export interface StreamClock {
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export const SYSTEM_CLOCK: StreamClock = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/** The part of a gRPC duplex call the stream uses (grpc-js's ClientDuplexStream has it). */
export interface SubscribeCall {
  on(event: 'data', listener: (response: GnmiSubscribeResponse) => void): unknown;
  on(event: 'error', listener: (error: Error) => void): unknown;
  on(event: 'end', listener: () => void): unknown;
  write(request: GnmiSubscribeRequest): unknown;
  cancel(): void;
}

export interface Backoff {
  initialMs: number;
  maxMs: number;
}

/** The wait before resubscribe attempt `attempt` (1..): doubling from initialMs, at most maxMs. */
export function backoffMs(attempt: number, b: Backoff): number {
  return Math.min(b.maxMs, b.initialMs * 2 ** Math.min(30, Math.max(0, attempt - 1)));
}

export interface StreamStatus {
  state: 'connecting' | 'streaming' | 'waiting' | 'stopped';
  /** The target sent sync_response: every subscribed path has been sent once. */
  synced: boolean;
  lastUpdateMs: number | null;
  /** Times the stream ended or failed and was subscribed again. */
  drops: number;
  lastDrop: string | null;
  retryAtMs: number | null;
  /** Updates refused (a value of the wrong type, a path without its key), and the last one's reason. */
  malformedUpdates: number;
  lastMalformed: string | null;
}

export interface TargetStreamOptions {
  open: () => SubscribeCall;
  request: GnmiSubscribeRequest;
  clock: StreamClock;
  backoff: Backoff;
}

/** One target's STREAM subscription: resubscribed with backoff when it drops; its values cleared when it does. */
export class TargetStream {
  readonly table = new GnmiPortTable();
  private readonly s: StreamStatus = {
    state: 'connecting',
    synced: false,
    lastUpdateMs: null,
    drops: 0,
    lastDrop: null,
    retryAtMs: null,
    malformedUpdates: 0,
    lastMalformed: null,
  };
  private call: SubscribeCall | null = null;
  private timer: unknown = null;
  private attempt = 0;

  constructor(private readonly o: TargetStreamOptions) {}

  status(): Readonly<StreamStatus> {
    return this.s;
  }

  start(): void {
    this.connect();
  }

  stop(): void {
    this.s.state = 'stopped';
    if (this.timer !== null) this.o.clock.clearTimeout(this.timer);
    this.timer = null;
    const call = this.call;
    this.call = null;
    call?.cancel();
  }

  private connect(): void {
    if (this.s.state === 'stopped') return;
    this.timer = null;
    this.s.state = 'connecting';
    this.s.retryAtMs = null;
    let call: SubscribeCall;
    try {
      call = this.o.open();
    } catch (error) {
      this.drop(null, `subscribe failed: ${(error as Error).message}`);
      return;
    }
    this.call = call;
    call.on('data', (response) => this.receive(call, response));
    call.on('error', (error) => this.drop(call, error.message));
    call.on('end', () => this.drop(call, 'stream ended by the target'));
    call.write(this.o.request);
  }

  private receive(call: SubscribeCall, response: GnmiSubscribeResponse): void {
    if (call !== this.call) return;
    if (response.error) {
      this.drop(call, `target error ${response.error.code ?? ''}: ${response.error.message ?? ''}`);
      return;
    }
    if (this.s.state === 'connecting') {
      this.s.state = 'streaming';
      this.attempt = 0;
    }
    if (response.sync_response) this.s.synced = true;
    if (!response.update) return;
    const result = this.table.apply(response.update);
    this.s.lastUpdateMs = this.o.clock.now();
    if (result.malformed.length > 0) {
      this.s.malformedUpdates += result.malformed.length;
      this.s.lastMalformed = result.malformed.at(-1) ?? null;
    }
  }

  /** The call (null: none was opened) failed or ended: its values go, and it is subscribed again after the backoff. */
  private drop(call: SubscribeCall | null, reason: string): void {
    if (call !== this.call || this.s.state === 'stopped' || this.s.state === 'waiting') return;
    this.call = null;
    call?.cancel();
    this.table.clear();
    this.s.synced = false;
    this.s.lastUpdateMs = null;
    this.s.drops++;
    this.s.lastDrop = reason;
    this.attempt++;
    const wait = backoffMs(this.attempt, this.o.backoff);
    this.s.state = 'waiting';
    this.s.retryAtMs = this.o.clock.now() + wait;
    this.timer = this.o.clock.setTimeout(() => this.connect(), wait);
  }
}
