import { isCompact } from '../../lib/channelValues.ts';
import type { ChannelValues, CompactSnapshot, LiveSnapshot } from '../types.ts';
import type { StreamRequest } from './streamEvents.ts';

/** The compact stream's arrays travel in a loop, not made anew each tick, to spare the GC. */

/** The buffers of a compact message's three arrays. */
export function buffersOf(snapshot: CompactSnapshot): ArrayBuffer[] {
  return [snapshot.utilization, snapshot.bytesPerSecond, snapshot.waitFraction].map(
    (values) => values.buffer as ArrayBuffer,
  );
}

/** The worker's side: buffers handed back, given out again as arrays of their length. */
export class ValuesPool {
  private readonly free: ArrayBuffer[] = [];

  /** `limit`: buffers kept at most (more are left to the garbage collector). */
  constructor(private readonly limit = 6) {}

  /** Buffers the page no longer reads (a detached one, of no length, is ignored). */
  give(buffers: readonly ArrayBuffer[]): void {
    for (const buffer of buffers) {
      if (buffer.byteLength > 0 && this.free.length < this.limit) this.free.push(buffer);
    }
  }

  /** An array of `length` values over a buffer handed back when one fits, else a new one. */
  readonly take = (length: number): ChannelValues => {
    const bytes = length * Float64Array.BYTES_PER_ELEMENT;
    const at = this.free.findIndex((buffer) => buffer.byteLength === bytes);
    if (at === -1) return new Float64Array(length);
    const [buffer] = this.free.splice(at, 1);
    return new Float64Array(buffer as ArrayBuffer);
  };

  get size(): number {
    return this.free.length;
  }
}

/** The page's side: hands back the buffers of the message `keep` messages older, which no panel draws. */
export function returnOlderValues(
  send: (buffers: ArrayBuffer[]) => void,
  keep = 2,
): (snapshot: LiveSnapshot) => void {
  const held: ArrayBuffer[][] = [];
  return (snapshot) => {
    if (!isCompact(snapshot)) return;
    held.push(buffersOf(snapshot));
    while (held.length > keep) send(held.shift() as ArrayBuffer[]);
  };
}

/** What the page posts to the stream's worker: the stream to open, then buffers handed back. */
export type StreamWorkerCall =
  | { kind: 'open'; url: string; request: StreamRequest }
  | { kind: 'recycle'; buffers: ArrayBuffer[] };
