import type { PortSample } from '../../fabric/port-sample.ts';
import type { IbPortReading } from './ib-port-record.ts';
import { fieldOfPerfquery, saturatedFields } from './ib-port-sample.ts';

/**
 * What a port's narrow counters need across reads: since when each has stood saturated (unknown, and why),
 * and what this collector's own clears took off each (resets on), added back so the counters it exposes
 * only ever climb: a clear right after a read adds that reading to the offset, never counted twice.
 */
export class CounterLedger {
  /** Port key → field → Unix ms of the first saturated reading. */
  readonly #saturatedSince = new Map<string, Map<string, number>>();
  /** Port key → field → what this collector's clears took off the counter so far. */
  readonly #offsets = new Map<string, Map<string, number>>();

  /**
   * Adds the port's offsets to `sample`'s counters and its saturation since-times, from the `reading`
   * read at `readAtMs`; then books the clears the reading says followed it.
   */
  apply(key: string, sample: PortSample, reading: IbPortReading, readAtMs: number): void {
    this.#saturation(key, sample, reading, readAtMs);
    const offsets = this.#offsets.get(key);
    if (offsets) {
      const errors = sample.errors as Record<string, number> | undefined;
      for (const [field, offset] of offsets) {
        if (field === 'transmitWait') sample.transmitWaitTicks += offset;
        else if (errors?.[field] !== undefined) errors[field] += offset;
      }
    }
    if (reading.cleared.length === 0) return;
    const book = offsets ?? new Map<string, number>();
    for (const name of reading.cleared) {
      const field = fieldOfPerfquery(name);
      const raw =
        name === 'PortXmitWait'
          ? Number(reading.transmitWaitTicks ?? 0)
          : ((reading.errors as Record<string, number> | null)?.[name] ?? 0);
      if (field !== undefined) book.set(field, (book.get(field) ?? 0) + raw);
    }
    this.#offsets.set(key, book);
  }

  #saturation(key: string, sample: PortSample, reading: IbPortReading, readAtMs: number): void {
    const fields = saturatedFields(reading);
    const known = this.#saturatedSince.get(key);
    if (fields.length === 0) {
      if (known) this.#saturatedSince.delete(key);
      return;
    }
    const since = new Map<string, number>();
    for (const field of fields) since.set(field, known?.get(field) ?? readAtMs);
    this.#saturatedSince.set(key, since);
    sample.saturatedSinceMs = Object.fromEntries(since);
  }

  /** Forgets ports no longer read: what is kept is bounded by the ports of the last read. */
  retain(keys: { has(key: string): boolean }): void {
    for (const map of [this.#saturatedSince, this.#offsets]) {
      for (const key of map.keys()) if (!keys.has(key)) map.delete(key);
    }
  }
}
