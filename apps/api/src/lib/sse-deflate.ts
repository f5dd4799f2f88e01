import { promisify } from 'node:util';
import { constants, deflateRaw, deflateRawSync } from 'node:zlib';

/**
 * Each tick's frame is deflated once, on its own (no reference to frames a later client never saw) and sync-flushed,
 * so any run of them after ZLIB_HEADER is a valid `Content-Encoding: deflate` body (RFC 1950), one Buffer for all.
 */
export const ZLIB_HEADER = Buffer.from([0x78, 0x9c]);

export type StreamEncoding = 'identity' | 'deflate';

/** One frame as a self-contained, sync-flushed raw deflate block sequence. */
export function deflateFrame(frame: Buffer | string): Buffer {
  return deflateRawSync(frame, { level: 6, finishFlush: constants.Z_SYNC_FLUSH });
}

const deflateRawAsync = promisify(deflateRaw);

/** deflateFrame on libuv's thread pool: the same bytes, the event loop free meanwhile. */
export function deflateFrameAsync(frame: Buffer | string): Promise<Buffer> {
  return deflateRawAsync(frame, { level: 6, finishFlush: constants.Z_SYNC_FLUSH });
}

/** Whether an `Accept-Encoding` header accepts deflate (listed, or `*`, with q above 0). */
export function acceptsDeflate(header: string | string[] | undefined): boolean {
  const text = Array.isArray(header) ? header.join(',') : (header ?? '');
  for (const part of text.split(',')) {
    const [coding = '', ...params] = part.trim().toLowerCase().split(';');
    if (coding.trim() !== 'deflate' && coding.trim() !== '*') continue;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    if (q === undefined || Number(q.slice(2)) > 0) return true;
  }
  return false;
}
