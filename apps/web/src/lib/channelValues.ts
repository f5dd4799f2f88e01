import type { ChannelValues, CompactSnapshot, LiveSnapshot } from '../api/types.ts';

/** Per-channel values and the two encodings of a stream message, at run time. */

/** Float64Arrays of a length: new ones, or over memory used before (the stream worker's pool). */
export type ValuesSource = (length: number) => ChannelValues;

const newValues: ValuesSource = (length) => new Float64Array(length);

/** Per-channel values from the wire's arrays (null unknown) as ChannelValues (NaN unknown). */
export function channelValuesOf(
  list: readonly (number | null)[],
  valuesOf: ValuesSource = newValues,
): ChannelValues {
  const values = valuesOf(list.length);
  for (let c = 0; c < list.length; c++) values[c] = list[c] ?? Number.NaN;
  return values;
}

/** Channels whose value is NaN (unknown). */
export function countUnknown(values: ArrayLike<number>): number {
  let unknown = 0;
  for (let c = 0; c < values.length; c++) if (Number.isNaN(values[c])) unknown++;
  return unknown;
}

export function isCompact(snapshot: LiveSnapshot): snapshot is CompactSnapshot {
  return 'utilization' in snapshot;
}
