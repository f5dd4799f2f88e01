import type { ErrorRates } from '@fabscope/contracts';
import type { SlottedPorts } from '../lib/port-rates.ts';
import { emptyPortRates, type PortRates } from '../lib/port-rates.ts';

/** A column's NaN as a PortRates field: null. */
function orNull(value: number): number | null {
  return Number.isNaN(value) ? null : value;
}

/**
 * Whether two answers have the same ports with the same error-rates objects, when both are answers
 * of one PortReadings (compared slot by slot); undefined for other maps (compare them by key).
 */
export function sameErrorObjects(
  a: ReadonlyMap<string, PortRates>,
  b: ReadonlyMap<string, PortRates>,
): boolean | undefined {
  return a instanceof SlotPorts && b instanceof SlotPorts ? a.sameErrorsAs(b) : undefined;
}

/** A port's error rates in an answer, without making its PortRates object where the answer holds columns. */
export function errorsOfPort(ports: ReadonlyMap<string, PortRates>, key: string): ErrorRates | undefined {
  if (!(ports instanceof SlotPorts)) return ports.get(key)?.errors;
  const slot = ports.slotWithReading(key);
  return slot < 0 ? undefined : ports.errors[slot];
}

/**
 * One answer's port rates by port key, held by slot in columns (the readings' key → slot map, which only grows, and a
 * typed array per rate) rather than a new Map of objects every tick.
 */
export class SlotPorts implements SlottedPorts {
  readonly read: Uint8Array;
  readonly transmitBytes: Float64Array;
  readonly receiveBytes: Float64Array;
  readonly transmitPackets: Float64Array;
  readonly receivePackets: Float64Array;
  readonly waitTicks: Float64Array;
  readonly tickSeconds: Float64Array;
  /** 1 up, 0 down, −1 unknown. */
  readonly linkUp: Int8Array;
  /** The port's error rates (the same object while its error reading is), undefined when none. */
  readonly errors: (ErrorRates | undefined)[];
  private count = 0;

  constructor(
    readonly slotOfKey: ReadonlyMap<string, number>,
    private readonly keyOfSlot: readonly string[],
    /** Slots at the time of the answer: a key given a slot later is not in it. */
    readonly slots: number,
  ) {
    this.read = new Uint8Array(slots);
    this.transmitBytes = new Float64Array(slots);
    this.receiveBytes = new Float64Array(slots);
    this.transmitPackets = new Float64Array(slots);
    this.receivePackets = new Float64Array(slots);
    this.waitTicks = new Float64Array(slots);
    this.tickSeconds = new Float64Array(slots);
    this.linkUp = new Int8Array(slots);
    this.errors = new Array(slots);
  }

  markRead(slot: number): void {
    if (this.read[slot] === 0) this.count++;
    this.read[slot] = 1;
  }

  /** The slot of `key` in this answer, when it has a reading of the port; −1 otherwise. */
  slotWithReading(key: string): number {
    const slot = this.slotOfKey.get(key);
    return slot !== undefined && this.read[slot] === 1 ? slot : -1;
  }

  /** The port of `slot` as an object: into `out` (reused by a caller that reads it at once) or a new one. */
  readSlot(slot: number, out: PortRates = emptyPortRates()): PortRates {
    out.transmitBytesPerSecond = orNull(this.transmitBytes[slot] as number);
    out.receiveBytesPerSecond = orNull(this.receiveBytes[slot] as number);
    out.transmitPacketsPerSecond = orNull(this.transmitPackets[slot] as number);
    out.receivePacketsPerSecond = orNull(this.receivePackets[slot] as number);
    out.transmitWaitTicksPerSecond = orNull(this.waitTicks[slot] as number);
    out.transmitWaitTickSeconds = orNull(this.tickSeconds[slot] as number);
    const up = this.linkUp[slot] as number;
    out.linkUp = up < 0 ? null : up === 1;
    const errors = this.errors[slot];
    if (errors !== undefined) out.errors = errors;
    // A reused object keeps its shape (no delete): without errors is undefined, as absent reads.
    else if (out.errors !== undefined) (out as { errors?: ErrorRates | undefined }).errors = undefined;
    return out;
  }

  /**
   * Whether `other`, an answer of the same readings, has the same ports with the same error-rates
   * objects (a port's are given again until its next error reading): slot by slot, no key looked up.
   */
  sameErrorsAs(other: SlotPorts): boolean {
    if (other.slotOfKey !== this.slotOfKey || other.count !== this.count) return false;
    const n = Math.max(this.slots, other.slots);
    for (let slot = 0; slot < n; slot++) {
      const here = this.read[slot] === 1;
      if (here !== (other.read[slot] === 1)) return false;
      if (here && this.errors[slot] !== other.errors[slot]) return false;
    }
    return true;
  }

  get size(): number {
    return this.count;
  }

  get(key: string): PortRates | undefined {
    const slot = this.slotWithReading(key);
    return slot < 0 ? undefined : this.readSlot(slot);
  }

  has(key: string): boolean {
    return this.slotWithReading(key) >= 0;
  }

  *entries(): MapIterator<[string, PortRates]> {
    for (let slot = 0; slot < this.slots; slot++)
      if (this.read[slot] === 1) yield [this.keyOfSlot[slot] as string, this.readSlot(slot)];
  }

  *keys(): MapIterator<string> {
    for (let slot = 0; slot < this.slots; slot++)
      if (this.read[slot] === 1) yield this.keyOfSlot[slot] as string;
  }

  *values(): MapIterator<PortRates> {
    for (const [, rates] of this.entries()) yield rates;
  }

  [Symbol.iterator](): MapIterator<[string, PortRates]> {
    return this.entries();
  }

  forEach(callback: (value: PortRates, key: string, map: ReadonlyMap<string, PortRates>) => void): void {
    for (const [key, rates] of this.entries()) callback(rates, key, this);
  }
}
