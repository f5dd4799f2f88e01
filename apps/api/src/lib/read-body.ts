import { setImmediate as nextTurn } from 'node:timers/promises';
import { SLICE_MS } from './sliced.ts';

/**
 * A response's whole body as bytes, read chunk by chunk with a turn of the event loop whenever the reading has held it
 * for a slice (lib/sliced.ts), where `response.arrayBuffer()` joins a big answer in one piece.
 */
export async function readBodyInSlices(response: Response, sliceMs = SLICE_MS): Promise<Uint8Array> {
  const declared = Number(response.headers.get('content-length') ?? Number.NaN);
  const length = Number.isSafeInteger(declared) && declared >= 0 ? declared : null;
  let bytes = new Uint8Array(length ?? 64 * 1024);
  let size = 0;
  const body = response.body;
  if (body === null) {
    if (length !== null && length > 0) throw new Error(`answer cut short: 0 of ${length} bytes`);
    return new Uint8Array(0);
  }
  const reader = body.getReader();
  let sliceStart = performance.now();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (size + value.byteLength > bytes.byteLength) {
        if (length !== null) throw new Error(`answer longer than its Content-Length: over ${length} bytes`);
        const bigger = new Uint8Array(Math.max(bytes.byteLength * 2, size + value.byteLength));
        bigger.set(bytes.subarray(0, size));
        bytes = bigger;
      }
      bytes.set(value, size);
      size += value.byteLength;
      if (performance.now() - sliceStart > sliceMs) {
        await nextTurn();
        sliceStart = performance.now();
      }
    }
  } finally {
    reader.releaseLock();
  }
  if (length !== null && size !== length) throw new Error(`answer cut short: ${size} of ${length} bytes`);
  return size === bytes.byteLength ? bytes : bytes.subarray(0, size);
}
