import { setImmediate as nextTurn } from 'node:timers/promises';

/** How long one slice of a fabric-sized loop may hold the event loop (requests wait behind it). */
export const SLICE_MS = 20;
/** Iterations between looks at the clock (a look costs more than most iterations). */
const CHECK_EVERY = 512;

/**
 * Calls `body(i)` for i = 0 … n−1 in order, giving the event loop a turn whenever a slice has run `sliceMs`: the same
 * work as a plain loop, in slices.
 */
export async function slicedLoop(n: number, body: (i: number) => void, sliceMs = SLICE_MS): Promise<void> {
  let sliceStart = performance.now();
  for (let i = 0; i < n; i++) {
    body(i);
    if ((i + 1) % CHECK_EVERY === 0 && performance.now() - sliceStart > sliceMs) {
      await nextTurn();
      sliceStart = performance.now();
    }
  }
}

/** Array elements JSON.stringify writes per slice in stringifyInSlices. */
const ELEMENTS_PER_SLICE = 16_384;

/**
 * JSON.stringify(value) of a plain object, the same text, with a turn of the event loop between slices of its long
 * arrays (the compact stream message's).
 */
export async function stringifyInSlices(
  value: Record<string, unknown>,
  elementsPerSlice = ELEMENTS_PER_SLICE,
): Promise<string> {
  const parts: string[] = [];
  for (const [key, field] of Object.entries(value)) {
    // What JSON.stringify leaves out of an object.
    if (field === undefined || typeof field === 'function' || typeof field === 'symbol') continue;
    parts.push(parts.length === 0 ? '{' : ',', JSON.stringify(key), ':');
    if (!Array.isArray(field) || field.length <= elementsPerSlice) {
      parts.push(JSON.stringify(field) as string);
      continue;
    }
    parts.push('[');
    for (let from = 0; from < field.length; from += elementsPerSlice) {
      await nextTurn();
      const text = JSON.stringify(field.slice(from, from + elementsPerSlice));
      parts.push(from === 0 ? '' : ',', text.slice(1, -1));
    }
    parts.push(']');
  }
  parts.push(parts.length === 0 ? '{}' : '}');
  return parts.join('');
}
