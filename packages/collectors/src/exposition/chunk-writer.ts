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
 * Exposition text written into buffers of about 1 MiB, so a fabric of 100k+ ports streams to the
 * socket without one giant string: full buffers wait in `ready` until the caller yields them
 * (`drain`). Hand-written because prom-client's per-label-set bookkeeping is too slow at fabric
 * size; the format is the same (text 0.0.4).
 */
export class ChunkWriter {
  private out = Buffer.allocUnsafe(CHUNK_BYTES);
  private pos = 0;
  /** Full buffers, ready to be sent. */
  ready: Buffer[] = [];

  /** Makes room for `bytes` more, moving the current buffer to `ready` when full. */
  private room(bytes: number): void {
    if (this.pos + bytes <= this.out.length) return;
    if (this.pos > 0) this.ready.push(this.out.subarray(0, this.pos));
    this.out = Buffer.allocUnsafe(Math.max(CHUNK_BYTES, bytes + 1024));
    this.pos = 0;
  }

  /** `# HELP` and `# TYPE` of a family. */
  header(name: string, type: 'counter' | 'gauge', help: string): void {
    const text = `# HELP ${name} ${help}\n# TYPE ${name} ${type}\n`;
    this.room(Buffer.byteLength(text) + 16);
    this.pos += this.out.write(text, this.pos, 'utf8');
  }

  /**
   * One sample: the name, the label text (`{…} `, with its trailing space), the value (integers
   * written digit by digit, others as Prometheus spells them, NaN included) and the timestamp
   * (` 1795436257975`, or none).
   */
  sample(name: Buffer, labels: Buffer, value: number, timestamp: Buffer | null): void {
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
