import { formatValue } from './writer.ts';

const CHUNK_BYTES = 1024 * 1024;
const NEWLINE = 0x0a;

/** Writes a non-negative safe integer's decimal digits at `pos`; returns the new position. */
function writeUint(out: Buffer, pos: number, v: number): number {
  if (v < 10) {
    out[pos] = 48 + v;
    return pos + 1;
  }
  let digits = 0;
  for (let t = v; t >= 1; t = Math.floor(t / 10)) digits++;
  let end = pos + digits;
  for (let t = v; end > pos; t = Math.floor(t / 10)) out[--end] = 48 + (t % 10);
  return pos + digits;
}

/**
 * Exposition text (0.0.4) in buffers of about 1 MiB, which wait in `ready` until drained, so a big
 * fabric streams without one giant string. Hand-written: prom-client's bookkeeping is too slow here.
 */
export class ChunkWriter {
  private out = Buffer.allocUnsafe(CHUNK_BYTES);
  private pos = 0;
  /** The HELP and TYPE lines of the family begun, until its first sample writes them. */
  private pendingHeader: string | null = null;
  /** Full buffers, ready to be sent. */
  ready: Buffer[] = [];

  /** Makes room for `bytes` more, moving the current buffer to `ready` when full. */
  private room(bytes: number): void {
    if (this.pos + bytes <= this.out.length) return;
    if (this.pos > 0) this.ready.push(this.out.subarray(0, this.pos));
    this.out = Buffer.allocUnsafe(Math.max(CHUNK_BYTES, bytes + 1024));
    this.pos = 0;
  }

  /**
   * Begins a family: its `# HELP` and `# TYPE` are written before its first sample, if one comes.
   * Returns the name as its samples take it.
   */
  header({ name, type, help }: { name: string; type: 'counter' | 'gauge'; help: string }): Buffer {
    this.pendingHeader = `# HELP ${name} ${help}\n# TYPE ${name} ${type}\n`;
    return Buffer.from(name, 'latin1');
  }

  private writeHeader(text: string): void {
    this.pendingHeader = null;
    this.room(Buffer.byteLength(text) + 16);
    this.pos += this.out.write(text, this.pos, 'utf8');
  }

  /** One sample: name, label text (`{…} ` with its trailing space), value, and ` <ms>` timestamp or none. */
  sample(name: Buffer, labels: Buffer, value: number, timestamp: Buffer | null): void {
    if (this.pendingHeader !== null) this.writeHeader(this.pendingHeader);
    // room for the name, labels, a value of at most 24 characters and the timestamp
    this.room(name.length + labels.length + 64);
    const out = this.out;
    let pos = this.pos;
    pos += name.copy(out, pos);
    pos += labels.copy(out, pos);
    pos =
      Number.isSafeInteger(value) && value >= 0
        ? writeUint(out, pos, value)
        : pos + out.write(formatValue(value), pos, 'latin1');
    if (timestamp) pos += timestamp.copy(out, pos);
    out[pos++] = NEWLINE;
    this.pos = pos;
  }

  /** The full buffers so far (to yield), emptied. */
  drain(): Buffer[] {
    const ready = this.ready;
    this.ready = [];
    return ready;
  }

  /** Everything written, the last partial buffer included. */
  end(): Buffer[] {
    if (this.pos > 0) this.ready.push(this.out.subarray(0, this.pos));
    this.pos = 0;
    this.out = Buffer.allocUnsafe(0);
    return this.drain();
  }
}
