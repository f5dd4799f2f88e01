import { PHYS_STATE_LINK_UP } from './ib-port-info.ts';
import {
  FAILED_NO_ANSWER,
  HAS_EXTENDED_ERRORS,
  HAS_PORT_COUNTERS,
  HAS_PORT_INFO,
  OFF,
  RECORD_SIZE,
  setFailure,
} from './ib-port-record.ts';

/** The record's PortInfo bytes, contiguous: PortState up to the Mellanox LinkSpeedActive. */
const INFO_AT = OFF.portState;
const INFO_BYTES = OFF.mlnxLinkSpeedActive + 1 - OFF.portState;
const PORT_ACTIVE = 4;
/**
 * LinkErrorRecoveryCounter and LinkDownedCounter (PORT_COUNTERS_ERRORS 1 and 2): u16s in the record's narrow
 * errors, or the low 16 bits of the 64-bit ones where the PMA has them (no PortCounters read then).
 */
function linkCounterAt(base: number, k: number, wide: boolean): number {
  return wide ? base + OFF.errors64 + 8 * (k + 1) + 6 : base + OFF.errors + 2 * (k + 1);
}

/** PortCounters or PortCountersExtended went unanswered (failures field: two bits per attribute index). */
function countersUnanswered(failures: number): boolean {
  return ((failures >> 2) & 3) === FAILED_NO_ANSWER || ((failures >> 4) & 3) === FAILED_NO_ANSWER;
}

/** How often an Active, LinkUp port whose link counters did not move has its PortInfo read anyway. */
export const PORT_INFO_EVERY_DEFAULT = 8;

/**
 * What each target's last PortInfo said, so a sweep asks it only when it can have changed: never read
 * (new targets), not Active and LinkUp (a link coming up is seen at once), any read of the port failed
 * in the last sweep, its LinkDownedCounter or LinkErrorRecoveryCounter moved, or every `every`th sweep
 * (staggered by port) at the latest. Ports not asked carry the cached answer (docs/metrics.md).
 */
export class PortInfoCache {
  readonly asked: Uint8Array;
  readonly #known: Uint8Array;
  readonly #failed: Uint8Array;
  readonly #info: Uint8Array;
  readonly #linkCounters: Uint16Array;
  readonly #countersKnown: Uint8Array;
  #sweep = 0;
  #every = PORT_INFO_EVERY_DEFAULT;

  constructor(size: number) {
    this.asked = new Uint8Array(size);
    this.#known = new Uint8Array(size);
    this.#failed = new Uint8Array(size);
    this.#info = new Uint8Array(size * INFO_BYTES);
    this.#linkCounters = new Uint16Array(size * 2);
    this.#countersKnown = new Uint8Array(size);
  }

  beginSweep(every: number): void {
    this.#every = Math.max(1, Math.floor(every));
    this.#sweep++;
    this.asked.fill(0);
  }

  /** Whether target i's PortInfo is asked with its counters at the start of this sweep (and marks it asked). */
  due(i: number): boolean {
    const at = i * INFO_BYTES;
    const due =
      !this.#known[i] ||
      this.#failed[i] === 1 ||
      this.#info[at] !== PORT_ACTIVE ||
      this.#info[at + 1] !== PHYS_STATE_LINK_UP ||
      (this.#sweep + i) % this.#every === 0;
    if (due) this.asked[i] = 1;
    return due;
  }

  /** After target i's PortCounters answered: true (and marked asked) when its link counters moved since last read. */
  linkCountersMoved(records: Buffer, i: number, wide: boolean): boolean {
    if (this.asked[i] || !this.#countersKnown[i]) return false;
    const base = i * RECORD_SIZE;
    for (let k = 0; k < 2; k++) {
      if (records.readUInt16BE(linkCounterAt(base, k, wide)) !== this.#linkCounters[2 * i + k]) {
        this.asked[i] = 1;
        return true;
      }
    }
    return false;
  }

  /**
   * At the end of a sweep (the records stamped with their LID's knowledge): keeps what was read, and gives each port not asked its cached PortInfo, unless
   * the port did not answer its counters (then its PortInfo is unknown too, as when it was asked).
   */
  settle(records: Buffer): void {
    for (let i = 0; i < this.#known.length; i++) {
      const base = i * RECORD_SIZE;
      const flags = records[base] as number;
      if (this.asked[i]) {
        this.#known[i] = flags & HAS_PORT_INFO ? 1 : 0;
        if (this.#known[i])
          records.copy(this.#info, i * INFO_BYTES, base + INFO_AT, base + INFO_AT + INFO_BYTES);
      } else if (countersUnanswered(records.readUInt16BE(base + OFF.failures))) {
        setFailure(records, base, 0, FAILED_NO_ANSWER);
      } else if (this.#known[i]) {
        records.set(this.#info.subarray(i * INFO_BYTES, (i + 1) * INFO_BYTES), base + INFO_AT);
        records[base] = flags | HAS_PORT_INFO;
      }
      this.#failed[i] = records.readUInt16BE(base + OFF.failures) !== 0 ? 1 : 0;
      const wide = (flags & HAS_EXTENDED_ERRORS) !== 0;
      this.#countersKnown[i] = wide || flags & HAS_PORT_COUNTERS ? 1 : 0;
      if (this.#countersKnown[i]) {
        this.#linkCounters[2 * i] = records.readUInt16BE(linkCounterAt(base, 0, wide));
        this.#linkCounters[2 * i + 1] = records.readUInt16BE(linkCounterAt(base, 1, wide));
      }
    }
  }
}
