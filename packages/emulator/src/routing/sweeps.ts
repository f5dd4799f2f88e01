import type { RoutingState } from '@fabscope/contracts';
import { type Fabric, type ForwardingTables, fatTreeRouting, sweepTables } from '@fabscope/topology';
import { DEFAULT_SWEEP_DELAY_MS, type EmulatorOptions } from '../emulator-types.ts';

/** The fabric manager's sweeps: when the next is due after a link changed, and what the last one found. */
export class Sweeps {
  readonly delayMs: number;
  /** When the next sweep is due (emulator ms); never while no link changed since the last. */
  atMs = Number.POSITIVE_INFINITY;
  private readonly routing: (fabric: Fabric) => ForwardingTables;
  /** The tables come from outside (a real subnet manager's, through useTables): never sweep. */
  private readonly external: boolean;
  private last: RoutingState;

  constructor(options: EmulatorOptions) {
    const delayMs = options.sweepDelayMs ?? DEFAULT_SWEEP_DELAY_MS;
    if (!(delayMs >= 0) || !Number.isFinite(delayMs)) {
      throw new RangeError(`sweepDelayMs must be a finite number ≥ 0, got ${delayMs}`);
    }
    this.delayMs = delayMs;
    this.routing = options.routing ?? fatTreeRouting;
    this.external = options.externalRouting ?? false;
    this.last = { sweep: 0, engine: options.tables.engine, downLinks: [], sweptAtMs: null };
  }

  /** A link went down or came up at `nowMs`: a sweep after the delay, unless one is already due. */
  linkChanged(nowMs: number): void {
    if (this.atMs === Number.POSITIVE_INFINITY && !this.external) this.atMs = nowMs + this.delayMs;
  }

  /** The tables of a sweep due at `nowMs`, computed on the fabric as it now is (down links uncabled). */
  due(fabric: Fabric, linkUp: Uint8Array, nowMs: number): ForwardingTables | undefined {
    if (this.atMs > nowMs) return undefined;
    this.atMs = Number.POSITIVE_INFINITY;
    return sweepTables(fabric, linkUp, this.routing);
  }

  /** `tables` are in use from `nowMs`. */
  applied(fabric: Fabric, tables: ForwardingTables, linkUp: Uint8Array, nowMs: number): void {
    this.last = {
      sweep: this.last.sweep + 1,
      engine: tables.engine,
      downLinks: fabric.links.filter((l) => linkUp[l.index] !== 1).map((l) => l.id),
      sweptAtMs: nowMs,
    };
  }

  state(): RoutingState {
    return { ...this.last, downLinks: [...this.last.downLinks] };
  }
}
