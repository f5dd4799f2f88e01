import { parseLabels, parseLine, parseValue } from './exposition.ts';

/**
 * A streaming reader of Prometheus text exposition for big scrapes: chunk by chunk, never the whole text, skipping
 * unwanted families by name; a label block is an opaque key (a port's series share one, parsed once: `labelsOfBlock`).
 */

/**
 * Receives each sample of a wanted metric: `metric` is its index in the scanner's names, `block`
 * the id of its label block in the scanner's `LabelBlocks`, `line` its 1-based line number.
 */
export type SampleSink = (metric: number, block: number, value: number, line: number) => void;

/**
 * The label blocks met so far (the bytes between a series' braces, as a latin1 key), numbered in order of first
 * appearance and kept across a target's scrapes.
 */
export class LabelBlocks {
  readonly keys: string[] = [];
  private readonly bytes: Buffer[] = [];
  private readonly index = new Map<string, number>();
  /** Block ids, line by line, of the last family read (the prediction) and of the current one. */
  previous: number[] = [];
  current: number[] = [];

  get size(): number {
    return this.keys.length;
  }

  /** The id of a block, numbering it if new. */
  intern(key: string): number {
    let id = this.index.get(key);
    if (id === undefined) {
      id = this.keys.length;
      this.keys.push(key);
      this.bytes.push(Buffer.from(key, 'latin1'));
      this.index.set(key, id);
    }
    return id;
  }

  /**
   * When the block at `pos` of the previous family is the one starting at `buf[start]` and a closing brace follows it,
   * its id; else -1.
   */
  predicted(pos: number, buf: Buffer, start: number, end: number): number {
    const id = this.previous[pos];
    if (id === undefined) return -1;
    const bytes = this.bytes[id] as Buffer;
    const close = start + bytes.length;
    if (close >= end || buf[close] !== CLOSE) return -1;
    return bytes.compare(buf, start, close) === 0 ? id : -1;
  }

  /** A new family begins: the one that ended becomes the prediction. */
  nextFamily(): void {
    if (this.current.length > 0) {
      this.previous = this.current;
      this.current = [];
    }
  }
}

const NEWLINE = 0x0a;
const HASH = 0x23;
const OPEN = 0x7b;
const CLOSE = 0x7d;
const SPACE = 0x20;
const TAB = 0x09;
const CR = 0x0d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const ZERO = 0x30;
/** Up to 15 decimal digits are exact as a double without help. */
const FAST_DIGITS = 15;

export class ExpositionScanner {
  private readonly index = new Map<string, number>();
  private readonly names: string[];
  private readonly anyName: boolean;
  private carry: Buffer[] = [];
  private line = 0;
  /**
   * The latest sample timestamp (ms) on a wanted line, or null when none carries one: the fabric
   * collector stamps its counters with the time it read them (docs/metrics.md).
   */
  latestTimestampMs: number | null = null;
  /** The timestamp (ms) of the sample the sink is called with, NaN when its line has none. */
  timestampMs = Number.NaN;
  private lastName: Buffer = Buffer.alloc(0);
  private lastMetric = -1;

  /** `names`: the metrics to read (index = `metric` in the sink); null: every metric, numbered as met. */
  constructor(
    names: readonly string[] | null,
    private readonly sink: SampleSink,
    readonly blocks: LabelBlocks = new LabelBlocks(),
  ) {
    this.anyName = names === null;
    this.names = names ? [...names] : [];
    this.names.forEach((name, i) => {
      if (!this.index.has(name)) this.index.set(name, i);
    });
  }

  /** The name of a metric index. */
  nameOf(metric: number): string {
    return this.names[metric] as string;
  }

  push(chunk: Uint8Array): void {
    const buf = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    let start = 0;
    if (this.carry.length > 0) {
      const newline = buf.indexOf(NEWLINE);
      if (newline < 0) {
        this.carry.push(Buffer.from(buf));
        return;
      }
      const joined = Buffer.concat([...this.carry, buf.subarray(0, newline)]);
      this.carry = [];
      this.scanLine(joined, 0, joined.length);
      start = newline + 1;
    }
    for (;;) {
      const newline = buf.indexOf(NEWLINE, start);
      if (newline < 0) break;
      this.scanLine(buf, start, newline);
      start = newline + 1;
    }
    // The chunk's buffer may be reused by its producer: keep a copy of the unfinished line.
    if (start < buf.length) this.carry.push(Buffer.from(buf.subarray(start)));
  }

  /** The end of the body: a last line without a newline is read too. */
  end(): void {
    if (this.carry.length === 0) return;
    const last = Buffer.concat(this.carry);
    this.carry = [];
    this.scanLine(last, 0, last.length);
  }

  private scanLine(buf: Buffer, s: number, e: number): void {
    const line = ++this.line;
    if (s === e || buf[s] === HASH) return;
    // Most lines carry the name of the line before: one comparison.
    const last = this.lastName;
    let i = s + last.length;
    let metric = this.lastMetric;
    if (
      !(last.length > 0 && i < e && (buf[i] === OPEN || buf[i] === SPACE) && last.compare(buf, s, i) === 0)
    ) {
      i = s;
      while (i < e) {
        const c = buf[i];
        if (c === OPEN || c === SPACE) break;
        i++;
      }
      if (i === s || i === e) {
        this.slowLine(buf, s, e, line);
        return;
      }
      metric = this.metricOf(buf, s, i);
    }
    if (metric < 0) return;
    const blocks = this.blocks;
    let block: number;
    let rest = i;
    if (buf[i] === OPEN) {
      block = blocks.predicted(blocks.current.length, buf, i + 1, e);
      if (block >= 0) {
        rest = i + 1 + (blocks.keys[block] as string).length + 1;
      } else {
        let j = i + 1;
        let quoted = false;
        for (; j < e; j++) {
          const c = buf[j];
          if (quoted) {
            if (c === BACKSLASH) j++;
            else if (c === QUOTE) quoted = false;
          } else if (c === QUOTE) {
            quoted = true;
          } else if (c === CLOSE) {
            break;
          }
        }
        if (j >= e) {
          this.slowLine(buf, s, e, line);
          return;
        }
        block = blocks.intern(buf.toString('latin1', i + 1, j));
        rest = j + 1;
      }
    } else {
      block = blocks.intern('');
    }
    blocks.current.push(block);
    while (rest < e && isSpace(buf[rest] as number)) rest++;
    let end = rest;
    let integer = 0;
    let digitsOnly = true;
    while (end < e && !isSpace(buf[end] as number)) {
      const d = (buf[end] as number) - ZERO;
      if (d >= 0 && d <= 9) integer = integer * 10 + d;
      else digitsOnly = false;
      end++;
    }
    const value =
      digitsOnly && end > rest && end - rest <= FAST_DIGITS
        ? integer
        : parseValue(buf.toString('latin1', rest, end), line);
    this.timestampMs = end < e ? this.timestamp(buf, end, e) : Number.NaN;
    this.sink(metric, block, value, line);
  }

  /** A sample timestamp after the value (integer ms), or NaN when there is none. */
  private timestamp(buf: Buffer, s: number, e: number): number {
    while (s < e && isSpace(buf[s] as number)) s++;
    let ms = 0;
    let i = s;
    for (; i < e; i++) {
      const d = (buf[i] as number) - ZERO;
      if (d < 0 || d > 9) break;
      ms = ms * 10 + d;
    }
    if (i === s) return Number.NaN;
    if (this.latestTimestampMs === null || ms > this.latestTimestampMs) this.latestTimestampMs = ms;
    return ms;
  }

  /** The metric index of the name at [s, e), or -1 when not wanted; a new name starts a new family. */
  private metricOf(buf: Buffer, s: number, e: number): number {
    const name = buf.toString('utf8', s, e);
    let metric = this.index.get(name);
    if (metric === undefined && this.anyName) {
      metric = this.names.length;
      this.names.push(name);
      this.index.set(name, metric);
    }
    this.lastName = Buffer.from(buf.subarray(s, e));
    this.lastMetric = metric ?? -1;
    this.blocks.nextFamily();
    return this.lastMetric;
  }

  /** A line the fast path cannot read: parsed in full, which names the error of a malformed one. */
  private slowLine(buf: Buffer, s: number, e: number, line: number): void {
    const text = buf.toString('utf8', s, e);
    const sample = parseLine(text, line);
    if (!sample) return;
    const metric = this.metricOf(Buffer.from(sample.name, 'utf8'), 0, Buffer.byteLength(sample.name));
    if (metric < 0) return;
    const brace = text.indexOf('{');
    const tail = brace === sample.name.length ? Buffer.from(text.slice(brace + 1), 'utf8') : Buffer.alloc(0);
    // parseLine read the labels; the block ends at the last brace before the value.
    const close = tail.lastIndexOf(CLOSE);
    const block = this.blocks.intern(close < 0 ? '' : tail.toString('latin1', 0, close));
    this.blocks.current.push(block);
    this.timestampMs = Number.NaN;
    this.sink(metric, block, sample.value, line);
  }
}

function isSpace(c: number): boolean {
  return c === SPACE || c === TAB || c === CR;
}

/** The labels of a label block from the scanner (the bytes between the braces, as latin1). */
export function labelsOfBlock(block: string, line: number): Record<string, string> {
  if (block === '') return {};
  return parseLabels(`${Buffer.from(block, 'latin1').toString('utf8')}}`, 0, line).labels;
}
