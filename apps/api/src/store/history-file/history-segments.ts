import {
  closeSync,
  ftruncateSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  truncateSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';
import type { Tuple } from '../../lib/tuple.ts';
import type { FabricHistoryDir } from './fabric-dir.ts';
import { FrameCodec, type StoredFrame } from './frame-codec.ts';

export interface HistorySegmentsOptions {
  /** Instants older than this (ms before now, or before the newest written) are dropped. */
  retentionMs: number;
  /** Most bytes the segments may take together; the oldest whole segments go first. */
  maxBytes: number;
  /** Length of a segment's time window (default 10 minutes). */
  segmentMs?: number | undefined;
  now?: (() => number) | undefined;
  /** Where problems with the files are told (default: a line on stderr); the API goes on without them. */
  report?: ((message: string) => void) | undefined;
}

export const DEFAULT_SEGMENT_MS = 600_000;
/** The end-of-stream marker of an Arrow IPC stream: written when a segment is finished. */
const END_OF_STREAM = Uint8Array.of(0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0);
const SEGMENT_NAME = /^history-(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})\.(\d{3})Z\.arrows$/;

interface Segment {
  path: string;
  /** Time of its first instant (its name). */
  startMs: number;
  bytes: number;
}

interface OpenSegment extends Segment {
  fd: number;
  window: number;
}

/** `history-20261122T100000.000Z.arrows`: the time of the segment's first instant. */
export function segmentName(startMs: number): string {
  const iso = new Date(startMs).toISOString(); // 2026-11-22T10:00:00.000Z
  return `history-${iso.replace(/[-:]/g, '')}.arrows`;
}

function segmentStart(name: string): number | null {
  const m = SEGMENT_NAME.exec(name);
  if (!m) return null;
  const [y, mo, d, h, mi, s, ms] = m.slice(1).map(Number) as Tuple<number, 7>;
  return Date.UTC(y, mo - 1, d, h, mi, s, ms);
}

/**
 * A fabric's history on disk (docs/history.md): segments of Arrow IPC streams, one record batch per instant, one
 * segment per time window or eighth of the byte budget.
 */
export class HistorySegments {
  private readonly codec: FrameCodec;
  private readonly segmentMs: number;
  private readonly now: () => number;
  private readonly report: (message: string) => void;
  /** Finished segments, oldest first. */
  private segments: Segment[] = [];
  private current: OpenSegment | null = null;
  /** Closed, or a write failed: nothing more is written. */
  private stopped = false;

  constructor(
    readonly dir: FabricHistoryDir,
    private readonly options: HistorySegmentsOptions,
  ) {
    this.codec = new FrameCodec(dir.identity);
    this.segmentMs = options.segmentMs ?? DEFAULT_SEGMENT_MS;
    this.now = options.now ?? Date.now;
    this.report =
      options.report ?? ((message) => process.stderr.write(`fabscope: history on disk: ${message}\n`));
  }

  /** Bytes of every segment, the one being written included. */
  get bytes(): number {
    return this.segments.reduce((sum, s) => sum + s.bytes, 0) + (this.current?.bytes ?? 0);
  }

  /** The segment files, oldest first (the one being written last). */
  files(): string[] {
    return [...this.segments, ...(this.current ? [this.current] : [])].map((s) => s.path);
  }

  /**
   * Reads back every instant kept, oldest first, one segment at a time (arrays are views of its bytes: copy them before
   * the next).
   */
  load(onFrame: (frame: StoredFrame) => void): { frames: number; segments: number } {
    this.segments = this.listSegments();
    const nowMs = this.now();
    this.applyRetention(nowMs);
    const cutoff = nowMs - this.options.retentionMs;
    let frames = 0;
    let newest = Number.NEGATIVE_INFINITY;
    for (const segment of [...this.segments]) {
      let bytes: Buffer;
      try {
        bytes = readFileSync(segment.path);
      } catch (error) {
        this.report(`cannot read ${segment.path}: ${(error as Error).message}`);
        continue;
      }
      if (bytes.byteLength === 0) {
        this.remove(segment);
        continue;
      }
      let decoded: ReturnType<FrameCodec['decode']>;
      try {
        decoded = this.codec.decode(bytes);
      } catch (error) {
        this.report(`skipped ${segment.path}: ${(error as Error).message}`);
        continue;
      }
      if (decoded.wholeBytes < bytes.byteLength && !this.endsWithEndOfStream(bytes, decoded.wholeBytes)) {
        // A write cut short (a crash mid-instant): the rest is not a record.
        try {
          truncateSync(segment.path, decoded.wholeBytes);
          segment.bytes = decoded.wholeBytes;
        } catch (error) {
          this.report(`cannot cut the torn end of ${segment.path}: ${(error as Error).message}`);
        }
      }
      for (const frame of decoded.frames) {
        if (frame.timeMs < cutoff || frame.timeMs > nowMs || !(frame.timeMs > newest)) continue;
        newest = frame.timeMs;
        onFrame(frame);
        frames++;
      }
    }
    return { frames, segments: this.segments.length };
  }

  private endsWithEndOfStream(bytes: Uint8Array, at: number): boolean {
    return (
      bytes.byteLength - at === END_OF_STREAM.byteLength &&
      bytes.subarray(at).every((b, i) => b === END_OF_STREAM[i])
    );
  }

  /** Appends one instant (newer than every one before), starting a segment when one is due. */
  append(frame: StoredFrame): void {
    if (this.stopped) return;
    let start = 0;
    try {
      const window = Math.floor(frame.timeMs / this.segmentMs);
      const current = this.current;
      if (current && (current.window !== window || current.bytes >= this.options.maxBytes / 8)) this.finish();
      // A segment's first instant carries its error reading whole (a segment is read on its own).
      if (!this.current) this.codec.startSegment();
      const { schema, batch } = this.codec.encode(frame);
      if (!this.current) this.current = this.open(frame.timeMs, window, schema);
      const open = this.current;
      start = open.bytes;
      writeAll(open.fd, batch);
      open.bytes += batch.byteLength;
      this.applyRetention(frame.timeMs);
    } catch (error) {
      // Disk full, removed, unwritable: the history goes on in memory only.
      this.stopped = true;
      this.report(`stopped writing: ${(error as Error).message}`);
      if (this.current) {
        try {
          ftruncateSync(this.current.fd, start);
        } catch {
          // the reader stops at the torn record anyway
        }
      }
    }
  }

  /** Finishes the segment being written (end-of-stream marker); nothing is appended after. */
  close(): void {
    this.stopped = true;
    this.finish();
  }

  private open(timeMs: number, window: number, schema: Uint8Array): OpenSegment {
    const path = join(this.dir.path, segmentName(timeMs));
    const fd = openSync(path, 'w');
    writeAll(fd, schema);
    return { path, startMs: timeMs, bytes: schema.byteLength, fd, window };
  }

  private finish(): void {
    const current = this.current;
    if (!current) return;
    this.current = null;
    try {
      writeAll(current.fd, END_OF_STREAM);
      current.bytes += END_OF_STREAM.byteLength;
    } catch {
      // a finished segment without its marker reads the same
    } finally {
      closeSync(current.fd);
    }
    this.segments.push({ path: current.path, startMs: current.startMs, bytes: current.bytes });
  }

  /** Deletes whole finished segments older than the retention, then the oldest beyond maxBytes. */
  private applyRetention(newestMs: number): void {
    const cutoff = newestMs - this.options.retentionMs;
    while (this.segments.length > 0) {
      const [first, next] = this.segments as [Segment, Segment | undefined];
      const endsBy =
        next?.startMs ??
        this.current?.startMs ??
        (Math.floor(first.startMs / this.segmentMs) + 1) * this.segmentMs;
      if (endsBy > cutoff) break;
      this.remove(first);
    }
    let total = this.bytes;
    while (total > this.options.maxBytes && this.segments.length > 0) {
      const oldest = this.segments[0] as Segment;
      total -= oldest.bytes;
      this.remove(oldest);
    }
  }

  private remove(segment: Segment): void {
    this.segments = this.segments.filter((s) => s !== segment);
    try {
      rmSync(segment.path, { force: true });
    } catch (error) {
      this.report(`cannot delete ${segment.path}: ${(error as Error).message}`);
    }
  }

  private listSegments(): Segment[] {
    const segments: Segment[] = [];
    for (const name of readdirSync(this.dir.path)) {
      const startMs = segmentStart(name);
      if (startMs === null) continue;
      const path = join(this.dir.path, name);
      segments.push({ path, startMs, bytes: statSync(path).size });
    }
    return segments.sort((a, b) => a.startMs - b.startMs);
  }
}

function writeAll(fd: number, bytes: Uint8Array): void {
  let written = 0;
  while (written < bytes.byteLength) written += writeSync(fd, bytes, written);
}
