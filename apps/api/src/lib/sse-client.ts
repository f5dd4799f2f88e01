import type { ServerResponse } from 'node:http';

/** Ticks a client may fall behind by before it is dropped. */
export const MAX_SKIPPED_TICKS = 10;

/**
 * An event-stream client with a bounded backlog: a tick is written only once the socket drained the last (Node holds
 * the shared frame, not a copy), else skipped; after MAX_SKIPPED_TICKS skips in a row it is told why and dropped.
 */
export class SseClient {
  private skippedInARow = 0;
  private closed = false;
  /** Ticks skipped in all (diagnostics). */
  skipped = 0;

  constructor(
    private readonly raw: ServerResponse,
    private readonly maxSkippedTicks = MAX_SKIPPED_TICKS,
    private readonly onDrop: () => void = () => undefined,
    /** How the client's own lines (keep-alive, `dropped`) are written: as text, or deflated as the ticks are. */
    private readonly encodeLine: (text: string) => Buffer | string = (text) => text,
  ) {}

  /** Writes a tick's frame, or skips it when the previous one is still queued. */
  send(frame: Buffer): void {
    if (this.closed) return;
    if (this.raw.writableNeedDrain) {
      this.skipped++;
      if (++this.skippedInARow >= this.maxSkippedTicks) this.drop();
      return;
    }
    this.skippedInARow = 0;
    this.raw.write(frame);
  }

  /** A comment line, only when nothing is queued: it keeps proxies from closing an idle stream. */
  keepAlive(): void {
    if (!this.closed && !this.raw.writableNeedDrain) this.raw.write(this.encodeLine(': keep-alive\n\n'));
  }

  private drop(): void {
    this.closed = true;
    const reason = `the client read less than the stream sends: ${this.maxSkippedTicks} ticks skipped in a row`;
    this.raw.end(this.encodeLine(`event: dropped\ndata: ${JSON.stringify({ reason })}\n\n`));
    // A client that reads nothing never lets the end through: close the socket after a grace period.
    setTimeout(() => {
      if (!this.raw.writableFinished) this.raw.destroy();
    }, 5000).unref();
    this.onDrop();
  }
}
