import { ERROR_FIELDS, type ErrorField, type ErrorRates } from '@fabscope/contracts';
import type { LinkIndex } from '../lib/link-index.ts';
import type { PortRates } from '../lib/port-rates.ts';
import { slicedLoop } from '../lib/sliced.ts';
import { errorsOfPort } from './slot-ports.ts';

/** One error reading of every port, as the history keeps it (docs/history.md): sparse. */
export interface ErrorReading {
  /** Per port, the index in `sets` of the fields its reading had; NO_READING: none (unknown). */
  readonly set: Uint8Array;
  /** The distinct sets of fields reported (one per kind of port, in practice), ERROR_FIELDS indices. */
  readonly sets: readonly (readonly number[])[];
  /** The fields not at their idle value: the port, the field (ERROR_FIELDS index), the value. */
  readonly port: Int32Array;
  readonly field: Uint8Array;
  readonly value: Float64Array;
}

export const NO_READING = 0xff;

/** The value a reported field has when nothing happens: 0, and 5 (excellent) for link quality. */
export function idleValue(field: ErrorField): number {
  return field === 'linkQualityIndicator' ? 5 : 0;
}

/** Each field's idle value, by ERROR_FIELDS index. */
const IDLE = ERROR_FIELDS.map(idleValue);

/** The reading of the ports' error rates (`errors` of each PortRates), in channel order. */
export function errorReadingOf(
  index: LinkIndex,
  ports: ReadonlyMap<string, PortRates>,
  previous?: ErrorReading,
): ErrorReading {
  const reading = new ErrorReadingBuilder(index, ports);
  for (let c = 0; c < index.channels.length; c++) reading.add(c);
  return reading.finish(previous);
}

/** errorReadingOf in slices of the event loop (lib/sliced.ts). */
export async function errorReadingSliced(
  index: LinkIndex,
  ports: ReadonlyMap<string, PortRates>,
  previous?: ErrorReading,
): Promise<ErrorReading> {
  const reading = new ErrorReadingBuilder(index, ports);
  await slicedLoop(index.channels.length, (c) => reading.add(c));
  return reading.finish(previous);
}

/** An error reading made channel by channel (`add` each in order), then `finish`ed. */
class ErrorReadingBuilder {
  private readonly set: Uint8Array;
  private readonly sets: number[][] = [];
  /** Set ids by the set's fields as a bit mask (bit f: ERROR_FIELDS[f]; 24 fields). */
  private readonly setIds = new Map<number, number>();
  private readonly port: number[] = [];
  private readonly field: number[] = [];
  private readonly value: number[] = [];

  constructor(
    private readonly index: LinkIndex,
    private readonly ports: ReadonlyMap<string, PortRates>,
  ) {
    this.set = new Uint8Array(index.channels.length).fill(NO_READING);
  }

  add(c: number): void {
    const errors = errorsOfPort(
      this.ports,
      (this.index.channels[c] as LinkIndex['channels'][number]).fromKey,
    );
    if (errors === undefined) return;
    // The fields in ERROR_FIELDS order, as a mask: no per-port list or string.
    let mask = 0;
    for (let f = 0; f < ERROR_FIELDS.length; f++) {
      const v = errors[ERROR_FIELDS[f] as ErrorField];
      if (v === undefined) continue;
      mask |= 1 << f;
      if (v !== IDLE[f]) {
        this.port.push(c);
        this.field.push(f);
        this.value.push(v);
      }
    }
    let id = this.setIds.get(mask);
    if (id === undefined) {
      // More kinds of port than a byte can name: the rest are unknown rather than wrong.
      if (this.sets.length >= NO_READING) return;
      id = this.sets.length;
      const fields: number[] = [];
      for (let f = 0; f < ERROR_FIELDS.length; f++) if (mask & (1 << f)) fields.push(f);
      this.sets.push(fields);
      this.setIds.set(mask, id);
    }
    this.set[c] = id;
  }

  finish(previous?: ErrorReading): ErrorReading {
    const { set, sets } = this;
    const same =
      previous !== undefined &&
      previous.sets.length === sets.length &&
      previous.sets.every((fields, i) => fields.join() === sets[i]?.join()) &&
      previous.set.every((id, c) => id === set[c]);
    return {
      set: same ? previous.set : set,
      sets: same ? previous.sets : sets,
      port: Int32Array.from(this.port),
      field: Uint8Array.from(this.field),
      value: Float64Array.from(this.value),
    };
  }
}

/** Each port's error rates again, by port key: what `errorReadingOf` read (unknown ports absent). */
export function portErrorsOf(index: LinkIndex, reading: ErrorReading): Map<string, ErrorRates> {
  const out = new Map<string, ErrorRates>();
  const byChannel: (ErrorRates | undefined)[] = new Array(reading.set.length);
  reading.set.forEach((id, c) => {
    const fields = reading.sets[id];
    if (id === NO_READING || fields === undefined) return;
    const errors: ErrorRates = {};
    for (const i of fields) {
      const name = ERROR_FIELDS[i] as ErrorField;
      errors[name] = idleValue(name);
    }
    byChannel[c] = errors;
    out.set((index.channels[c] as LinkIndex['channels'][number]).fromKey, errors);
  });
  for (let k = 0; k < reading.port.length; k++) {
    const errors = byChannel[reading.port[k] as number];
    const name = ERROR_FIELDS[reading.field[k] as number];
    if (errors && name) errors[name] = reading.value[k] as number;
  }
  return out;
}

/**
 * The error rates of the port that sends on channel `c` in a reading, without building every port's (a link's history
 * asks one direction at many instants); undefined when the port had no reading.
 */
export function channelErrorsOf(reading: ErrorReading, c: number): ErrorRates | undefined {
  const id = reading.set[c];
  const fields = id === undefined ? undefined : reading.sets[id];
  if (id === NO_READING || fields === undefined) return undefined;
  const errors: ErrorRates = {};
  for (const i of fields) {
    const name = ERROR_FIELDS[i] as ErrorField;
    errors[name] = idleValue(name);
  }
  for (let k = 0; k < reading.port.length; k++) {
    if (reading.port[k] !== c) continue;
    const name = ERROR_FIELDS[reading.field[k] as number];
    if (name) errors[name] = reading.value[k] as number;
  }
  return errors;
}
