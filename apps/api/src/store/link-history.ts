import type { LinkFrame } from '../lib/frame.ts';
import type { PortRates } from '../lib/port-rates.ts';
import { slicedLoop } from '../lib/sliced.ts';
import type { FabricSummary } from '../lib/summary.ts';
import { type ErrorReading, errorReadingOf, errorReadingSliced } from './error-reading.ts';
import {
  decodeRate,
  encodeRate,
  LOAD_MAX,
  LOAD_SCALE,
  LOAD_UNKNOWN,
  WAIT_SCALE,
  WAIT_UNKNOWN,
} from './history-encoding.ts';
import { sameErrorObjects } from './slot-ports.ts';

/**
 * Bounded in-memory history of every link direction: a ring of typed-array frames, one per scrape, 6 bytes a direction
 * (docs/history.md), plus the error reading in force (error-reading.ts) to recompute past error rates and categories.
 */
export class LinkHistory {
  readonly capacityFrames: number;
  private readonly times: Float64Array;
  private readonly load: Uint16Array;
  private readonly packets: Uint16Array;
  private readonly wait: Uint8Array;
  private readonly up: Int8Array;
  private readonly summaries: (FabricSummary | undefined)[];
  /** Per frame, the ports' error reading in force (shared between frames), undefined: unknown. */
  private readonly readings: (ErrorReading | undefined)[];
  /** The ports' error objects the newest reading was made from: the same objects, the same reading. */
  private readingSource: { ports: ReadonlyMap<string, PortRates>; reading: ErrorReading } | null = null;
  /** Ring index of the newest frame; −1 before the first. */
  private head = -1;
  private count = 0;

  constructor(
    readonly channels: number,
    capacityFrames: number,
  ) {
    if (!(capacityFrames >= 1))
      throw new RangeError(`history needs at least one frame, got ${capacityFrames}`);
    this.capacityFrames = Math.floor(capacityFrames);
    const cells = this.capacityFrames * channels;
    this.times = new Float64Array(this.capacityFrames).fill(Number.NaN);
    this.load = new Uint16Array(cells);
    this.packets = new Uint16Array(cells);
    this.wait = new Uint8Array(cells);
    this.up = new Int8Array(cells);
    this.summaries = new Array(this.capacityFrames);
    this.readings = new Array(this.capacityFrames);
  }

  /** Bytes held by the frames (the arrays are allocated up front; pages are touched as they fill). */
  get bytes(): number {
    return [this.times, this.load, this.packets, this.wait, this.up].reduce(
      (sum, a) => sum + a.byteLength,
      0,
    );
  }

  get frames(): number {
    return this.count;
  }

  /** Time of the oldest and newest frame, or null when empty. */
  span(): { oldestMs: number; newestMs: number } | null {
    if (this.count === 0) return null;
    return { oldestMs: this.timeOf(0), newestMs: this.timeOf(this.count - 1) };
  }

  /**
   * Adds a frame from a tick's columns; frames must come in time order. Returns the new frame's ring
   * index, or −1 when it was ignored (older than the newest).
   */
  recordFrame(timeMs: number, frame: LinkFrame, summary: FabricSummary): number {
    const n = this.channels;
    if (frame.linkUp.length !== n)
      throw new RangeError(`expected ${n} link directions, got ${frame.linkUp.length}`);
    if (!this.advance(timeMs, summary)) return -1;
    this.readings[this.head] = this.readingOf(frame);
    const base = this.head * n;
    const { bytesPerSecond, packetsPerSecond, transmitWaitFraction, linkUp } = frame;
    const capacity = frame.index.capacity;
    for (let c = 0; c < n; c++) {
      const bytes = bytesPerSecond[c] as number;
      this.load[base + c] = Number.isNaN(bytes)
        ? LOAD_UNKNOWN
        : Math.round(Math.min(LOAD_MAX, Math.max(0, bytes / (capacity[c] as number))) * LOAD_SCALE);
      this.packets[base + c] = encodeRate(packetsPerSecond[c] as number);
      const w = transmitWaitFraction[c] as number;
      this.wait[base + c] = Number.isNaN(w)
        ? WAIT_UNKNOWN
        : Math.round(Math.min(1, Math.max(0, w)) * WAIT_SCALE);
    }
    this.up.set(linkUp, base);
    return this.head;
  }

  /**
   * Makes the error reading of `frame` ahead of `recordFrame`, in slices of the event loop (a big
   * fabric's comparison holds it too long in one piece); recordFrame of that frame then takes it.
   */
  async prepareReading(frame: LinkFrame): Promise<void> {
    const { ports, index } = frame;
    let reading: ErrorReading | undefined;
    if (ports.size > 0) {
      const last = this.readingSource;
      const same = last !== null && (await sameErrors(last.ports, ports, slicedLoop));
      if (last && same) reading = last.reading;
      else {
        reading = await errorReadingSliced(index, ports, last?.reading);
        this.readingSource = { ports, reading };
      }
    }
    this.prepared = { frame, reading };
  }

  /** The reading prepareReading made, and of which frame. */
  private prepared: { frame: LinkFrame; reading: ErrorReading | undefined } | null = null;

  /**
   * The ports' error reading of a frame: the previous frame's while every port's error object is
   * the same one (the embedded store gives a port's error rates again until its next error reading).
   */
  private readingOf(frame: LinkFrame): ErrorReading | undefined {
    const prepared = this.prepared;
    this.prepared = null;
    if (prepared?.frame === frame) return prepared.reading;
    const { index, ports } = frame;
    if (ports.size === 0) return undefined;
    const last = this.readingSource;
    if (last && sameErrors(last.ports, ports, plainLoop) === true) return last.reading;
    const reading = errorReadingOf(index, ports, last?.reading);
    this.readingSource = { ports, reading };
    return reading;
  }

  /** Makes the next ring slot the newest frame, at `timeMs`; false (nothing done) when that is not newer. */
  private advance(timeMs: number, summary: FabricSummary | undefined): boolean {
    if (this.count > 0 && !(timeMs > this.timeOf(this.count - 1))) return false;
    this.head = (this.head + 1) % this.capacityFrames;
    this.count = Math.min(this.capacityFrames, this.count + 1);
    this.times[this.head] = timeMs;
    this.summaries[this.head] = summary;
    return true;
  }

  /** Ring index of the i-th frame, oldest first. */
  private ringIndex(i: number): number {
    return (this.head - this.count + 1 + i + this.capacityFrames) % this.capacityFrames;
  }

  private timeOf(i: number): number {
    return this.times[this.ringIndex(i)] as number;
  }

  /**
   * Adds a frame already encoded (as `frameColumns` gives it, e.g. read back from disk): each
   * array one value per direction in channel order. Ignored when not newer than the newest frame.
   */
  recordEncoded(timeMs: number, columns: FrameColumns, summary: FabricSummary | undefined): boolean {
    const { load, packets, wait, up } = columns;
    const n = this.channels;
    if (load.length !== n || packets.length !== n || wait.length !== n || up.length !== n)
      throw new RangeError(`expected ${this.channels} link directions per column`);
    if (!this.advance(timeMs, summary)) return false;
    this.readings[this.head] = columns.errors;
    const base = this.head * this.channels;
    this.load.set(load, base);
    this.packets.set(packets, base);
    this.wait.set(wait, base);
    this.up.set(up, base);
    return true;
  }

  /** A frame's (ring index) encoded values, views into the ring: valid until the frame is replaced. */
  frameColumns(frame: number): FrameColumns {
    const from = frame * this.channels;
    const to = from + this.channels;
    return {
      load: this.load.subarray(from, to),
      packets: this.packets.subarray(from, to),
      wait: this.wait.subarray(from, to),
      up: this.up.subarray(from, to),
      errors: this.readings[frame],
    };
  }

  /**
   * The frame in force at `timeMs`: the newest at or before it and at most `maxAgeMs` older;
   * its ring index, or −1 when there is none (before the history, or a gap).
   */
  frameAt(timeMs: number, maxAgeMs: number): number {
    let lo = 0;
    let hi = this.count - 1;
    let found = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (this.timeOf(mid) <= timeMs) {
        found = mid;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    if (found < 0 || timeMs - this.timeOf(found) > maxAgeMs) return -1;
    return this.ringIndex(found);
  }

  /** Time a frame (ring index) was recorded. */
  frameTime(frame: number): number {
    return this.times[frame] as number;
  }

  summaryOf(frame: number): FabricSummary | undefined {
    return this.summaries[frame];
  }

  /** Bytes/s of direction `channel` in a frame, given its capacity; null unknown. */
  bytesPerSecond(frame: number, channel: number, capacityBytesPerSecond: number): number | null {
    const v = this.load[frame * this.channels + channel] as number;
    return v === LOAD_UNKNOWN ? null : (v / LOAD_SCALE) * capacityBytesPerSecond;
  }

  /** Packets/s of direction `channel` in a frame; null unknown. */
  packetsPerSecond(frame: number, channel: number): number | null {
    const v = decodeRate(this.packets[frame * this.channels + channel] as number);
    return Number.isNaN(v) ? null : v;
  }

  waitFraction(frame: number, channel: number): number | null {
    const v = this.wait[frame * this.channels + channel] as number;
    return v === WAIT_UNKNOWN ? null : v / WAIT_SCALE;
  }

  linkUp(frame: number, channel: number): boolean | null {
    const v = this.up[frame * this.channels + channel] as number;
    return v < 0 ? null : v === 1;
  }
}

/** One frame as the ring keeps it, one value per direction in channel order (encodings above). */
export interface FrameColumns {
  load: Uint16Array;
  packets: Uint16Array;
  wait: Uint8Array;
  up: Int8Array;
  /** The ports' error reading in force; undefined: unknown (none read, or a history of format 1). */
  errors: ErrorReading | undefined;
}

/** `body(i)` for i = 0 … n−1 at once (slicedLoop's synchronous twin). */
function plainLoop(n: number, body: (i: number) => void): void {
  for (let i = 0; i < n; i++) body(i);
}

/**
 * Whether `ports` has `before`'s ports, each with the same error-rates object (a store repeats it until the next error
 * reading): slot by slot for the embedded store (sameErrorObjects), else key by key through `loop`, sliced or at once.
 */
function sameErrors(
  before: ReadonlyMap<string, PortRates>,
  ports: ReadonlyMap<string, PortRates>,
  loop: (n: number, body: (i: number) => void) => void | Promise<void>,
): boolean | Promise<boolean> {
  if (before.size !== ports.size) return false;
  const quick = sameErrorObjects(before, ports);
  if (quick !== undefined) return quick;
  let same = true;
  const entries = ports.entries();
  const looped = loop(ports.size, () => {
    if (!same) return;
    const [key, port] = entries.next().value as [string, PortRates];
    if (before.get(key)?.errors !== port.errors) same = false;
  });
  return looped instanceof Promise ? looped.then(() => same) : same;
}
