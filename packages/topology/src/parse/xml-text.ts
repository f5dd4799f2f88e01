import { excerpt, type ParseError } from './errors.ts';

const PREDEFINED: Readonly<Record<string, string>> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };
const REFERENCE = /&(?:#(\d{1,7})|#x([0-9a-f]{1,6})|([A-Za-z_:][\w.:-]*));/iy;

/** `text` from `from` to `to` with predefined and numeric references decoded, others left as written. */
export function decodeReferences(
  text: string,
  from: number,
  to: number,
  malformed: (reason: string, offset: number) => ParseError,
): string {
  const raw = text.slice(from, to);
  let amp = raw.indexOf('&');
  if (amp < 0) return raw;
  let out = '';
  let done = 0;
  while (amp >= 0) {
    REFERENCE.lastIndex = amp;
    const ref = REFERENCE.exec(raw);
    if (!ref) {
      throw malformed(
        `"&" must start a reference like &amp; (got "${excerpt(raw.slice(amp, amp + 12))}")`,
        from + amp,
      );
    }
    let value: string;
    if (ref[3] !== undefined) value = PREDEFINED[ref[3]] ?? ref[0];
    else {
      const code = ref[1] !== undefined ? Number(ref[1]) : Number.parseInt(ref[2] as string, 16);
      if (code === 0 || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) {
        throw malformed(`"${ref[0]}" is not a character`, from + amp);
      }
      value = String.fromCodePoint(code);
    }
    out += raw.slice(done, amp) + value;
    done = amp + ref[0].length;
    amp = raw.indexOf('&', done);
  }
  return out + raw.slice(done);
}

export function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x09 || c === 0x0d;
}

export function isNameStart(c: number): boolean {
  return (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || c === 0x5f || c === 0x3a || c >= 0xc0;
}

export function isNameChar(c: number): boolean {
  return isNameStart(c) || (c >= 0x30 && c <= 0x39) || c === 0x2d || c === 0x2e || c === 0xb7;
}

/** The 1-based line of an offset, counted forward as a reader moves (its offsets only grow). */
export class LineCounter {
  private line = 1;
  private counted = 0;
  private nextNewline: number;

  constructor(private readonly text: string) {
    this.nextNewline = text.indexOf('\n');
  }

  lineOf(offset: number): number {
    const { text } = this;
    if (offset < this.counted) {
      // An error naming an earlier position: counted from the start, once.
      let earlier = 1;
      for (let i = text.indexOf('\n'); i >= 0 && i < offset; i = text.indexOf('\n', i + 1)) earlier++;
      return earlier;
    }
    this.counted = offset;
    while (this.nextNewline >= 0 && this.nextNewline < offset) {
      this.line++;
      this.nextNewline = text.indexOf('\n', this.nextNewline + 1);
    }
    return this.line;
  }
}
