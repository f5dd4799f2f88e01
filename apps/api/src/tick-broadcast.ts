import { setImmediate as nextTurn } from 'node:timers/promises';
import { compactFrame } from './lib/compact-tick.ts';
import { stringifyInSlices } from './lib/sliced.ts';
import { deflateFrame, deflateFrameAsync, type StreamEncoding } from './lib/sse-deflate.ts';
import type { Tick } from './sampler.ts';

/** Encodings of a tick on the stream: `full` has every link direction as an object. */
export const STREAM_VIEWS = ['full', 'compact'] as const;
export type StreamView = (typeof STREAM_VIEWS)[number];

/** Called with one SSE `data:` frame per tick; the same Buffer for every client of a view and encoding. */
type Listener = (frame: Buffer) => void;

/** A stream's view in one content encoding: its clients share one frame per tick. */
type Channel = `${StreamView}/${StreamEncoding}`;
const CHANNELS: readonly Channel[] = STREAM_VIEWS.flatMap((v) => [`${v}/identity`, `${v}/deflate`] as const);

/** Stream clients written to per turn of the event loop. */
export const DELIVERY_BATCH = 50;

/** What the broadcast reads of the sampler: its latest tick and each new one. */
export interface TickSource {
  readonly latest: Tick | null;
  onTick(listener: (tick: Tick) => void | Promise<void>): () => void;
}

/**
 * The SSE side of the refresh clock: each tick encoded at most once per view and content encoding,
 * only while a client of it is connected, and the same Buffer written to every such client.
 */
export class TickBroadcast {
  /** SSE frames (`data: …\n\n`) of `tick` per view and encoding, made on demand. */
  private encoded = new Map<Channel, Buffer>();
  private tick: Tick | null = null;
  private readonly listeners = new Map<Channel, Set<Listener>>(CHANNELS.map((c) => [c, new Set()]));
  private readonly stopTicks: () => void;
  /** How many times each view was serialized (for tests and diagnostics). */
  readonly serializations: Record<StreamView, number> = { full: 0, compact: 0 };

  constructor(private readonly source: TickSource) {
    this.stopTicks = source.onTick((tick) => this.broadcast(tick));
  }

  close(): void {
    this.stopTicks();
  }

  /** Calls `listener` with the latest tick in `view` (if any) and then once per tick. */
  subscribe(
    listener: Listener,
    view: StreamView = 'full',
    encoding: StreamEncoding = 'identity',
  ): () => void {
    const channel: Channel = `${view}/${encoding}`;
    const listeners = this.listeners.get(channel) as Set<Listener>;
    listeners.add(listener);
    const frame = this.encode(channel);
    if (frame !== null) listener(frame);
    return () => listeners.delete(listener);
  }

  /** Connected stream clients, all views together. */
  get clientCount(): number {
    let count = 0;
    for (const listeners of this.listeners.values()) count += listeners.size;
    return count;
  }

  private async broadcast(tick: Tick): Promise<void> {
    this.use(tick);
    for (const channel of CHANNELS) {
      if ((this.listeners.get(channel) as Set<Listener>).size === 0) continue;
      const frame = await this.encodeInTurns(tick, channel);
      if (frame !== null) this.deliver(channel, frame);
    }
  }

  /** Forgets the frames of an older tick. */
  private use(tick: Tick | null): void {
    if (tick === this.tick) return;
    this.tick = tick;
    this.encoded = new Map();
  }

  /** The latest tick as an SSE frame of `channel`, made once per tick; null before the first tick. */
  private encode(channel: Channel): Buffer | null {
    this.use(this.source.latest);
    const tick = this.tick;
    if (tick === null) return null;
    let frame = this.encoded.get(channel);
    if (frame === undefined) {
      const [view, encoding] = channel.split('/') as [StreamView, StreamEncoding];
      frame =
        encoding === 'deflate'
          ? deflateFrame(this.encode(`${view}/identity`) as Buffer)
          : this.serialized(tick, view);
      this.encoded.set(channel, frame);
    }
    return frame;
  }

  /** The tick as one SSE message of `view`, uncompressed. */
  private serialized(tick: Tick, view: StreamView): Buffer {
    const json = JSON.stringify(view === 'compact' ? compactFrame(tick, tick.frame) : tick);
    this.serializations[view]++;
    return Buffer.from(`data: ${json}\n\n`, 'utf8');
  }

  /** The compact message as `serialized` writes it, its long arrays in slices of the loop. */
  private async serializedInSlices(tick: Tick): Promise<Buffer> {
    const json = await stringifyInSlices(
      compactFrame(tick, tick.frame) as unknown as Record<string, unknown>,
    );
    this.serializations.compact++;
    return Buffer.from(`data: ${json}\n\n`, 'utf8');
  }

  /** `encode` with the loop free between its stages: serialized after a turn, deflated on libuv's thread pool. */
  private async encodeInTurns(tick: Tick, channel: Channel): Promise<Buffer | null> {
    const kept = this.encoded.get(channel);
    if (kept !== undefined || this.tick !== tick) return kept ?? null;
    const [view, encoding] = channel.split('/') as [StreamView, StreamEncoding];
    let frame: Buffer;
    if (encoding === 'deflate') {
      const plain = await this.encodeInTurns(tick, `${view}/identity`);
      if (plain === null) return null;
      frame = await deflateFrameAsync(plain);
    } else {
      await nextTurn();
      frame = view === 'compact' ? await this.serializedInSlices(tick) : this.serialized(tick, view);
    }
    if (this.tick !== tick) return null;
    const again = this.encoded.get(channel);
    if (again !== undefined) return again;
    this.encoded.set(channel, frame);
    return frame;
  }

  /**
   * Hands a frame to every listener of `channel`, DELIVERY_BATCH at a time with the event loop free
   * in between, skipping clients gone meanwhile.
   */
  private deliver(channel: Channel, frame: Buffer): void {
    const current = this.listeners.get(channel) as Set<Listener>;
    const listeners = [...current];
    let next = 0;
    const batch = () => {
      const end = Math.min(next + DELIVERY_BATCH, listeners.length);
      for (; next < end; next++) {
        const listener = listeners[next] as Listener;
        if (current.has(listener)) listener(frame);
      }
      if (next < listeners.length) setImmediate(batch);
    };
    batch();
  }
}
