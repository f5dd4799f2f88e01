// A query_range answer (`{"status":"success","data":{"resultType":"matrix","result":[…]}}`) read straight from its
// text: each series' labels parsed as JSON (a few short strings), its points scanned into typed arrays, so thousands
// of series over hours make no object per point.

/** One series of a matrix: its labels, and its first `count` points (times in ms, values NaN where not finite). */
export interface MatrixSeries {
  metric: Record<string, string>;
  timesMs: Float64Array;
  values: Float64Array;
  count: number;
}

/** Thrown when the text is not a matrix answer as the Prometheus HTTP API writes it; names the offset. */
export class MatrixFormatError extends Error {
  override name = 'MatrixFormatError';
}

const QUOTE = 34;
const BACKSLASH = 92;
const OPEN_BRACKET = 91;
const CLOSE_BRACKET = 93;
const OPEN_BRACE = 123;
const CLOSE_BRACE = 125;
const COMMA = 44;
const COLON = 58;
const DOT = 46;

/**
 * Each series of the matrix in `text`, in order, to `onSeries` (its arrays are reused for the next series: copy what
 * is kept). At most `maxPoints` points in all, else an error naming that limit.
 */
export function readMatrix(text: string, onSeries: (series: MatrixSeries) => void, maxPoints: number): void {
  const r = new MatrixReader(text, maxPoints);
  r.readAll(onSeries);
}

class MatrixReader {
  private i = 0;
  private points = 0;
  private timesMs = new Float64Array(64);
  private values = new Float64Array(64);

  constructor(
    private readonly text: string,
    private readonly maxPoints: number,
  ) {}

  readAll(onSeries: (series: MatrixSeries) => void): void {
    const at = this.text.indexOf('"result"');
    if (at < 0) throw this.error('no "result"');
    this.i = at + 8;
    this.expect(COLON);
    this.expect(OPEN_BRACKET);
    if (this.peek() === CLOSE_BRACKET) return;
    for (;;) {
      onSeries(this.series());
      const c = this.next();
      if (c === CLOSE_BRACKET) return;
      if (c !== COMMA) throw this.error('expected , or ] between series');
    }
  }

  private series(): MatrixSeries {
    this.expect(OPEN_BRACE);
    let metric: Record<string, string> = {};
    let count = 0;
    for (;;) {
      const key = this.string();
      this.expect(COLON);
      if (key === 'metric') metric = JSON.parse(this.text.slice(this.i, this.skipValue())) as typeof metric;
      else if (key === 'values') count = this.values_();
      else this.skipValue();
      const c = this.next();
      if (c === CLOSE_BRACE) break;
      if (c !== COMMA) throw this.error('expected , or } in a series');
    }
    return { metric, timesMs: this.timesMs, values: this.values, count };
  }

  /** `[[t,"v"],…]` into the scratch arrays; the number of points. */
  private values_(): number {
    this.expect(OPEN_BRACKET);
    let n = 0;
    if (this.peek() === CLOSE_BRACKET) {
      this.i++;
      return 0;
    }
    for (;;) {
      if (++this.points > this.maxPoints)
        throw new RangeError(
          `the TSDB answered more than ${this.maxPoints.toLocaleString('en')} points to one query (the limit of a query's answer)`,
        );
      if (n === this.timesMs.length) this.grow();
      this.expect(OPEN_BRACKET);
      this.timesMs[n] = this.timeMs();
      this.expect(COMMA);
      this.values[n++] = this.sampleValue();
      this.expect(CLOSE_BRACKET);
      const c = this.next();
      if (c === CLOSE_BRACKET) return n;
      if (c !== COMMA) throw this.error('expected , or ] between points');
    }
  }

  /** A sample's value, a number in a JSON string (never escaped): NaN unless finite. */
  private sampleValue(): number {
    this.skipSpace();
    const t = this.text;
    if (t.charCodeAt(this.i) !== QUOTE) throw this.error('expected a sample value');
    const end = t.indexOf('"', this.i + 1);
    if (end < 0) throw this.error('unterminated sample value');
    const value = Number(t.slice(this.i + 1, end));
    this.i = end + 1;
    return Number.isFinite(value) ? value : Number.NaN;
  }

  /** A sample's time, seconds with up to millisecond decimals, as whole ms (exact, as promTime writes them). */
  private timeMs(): number {
    const t = this.text;
    this.skipSpace();
    let whole = 0;
    let c = t.charCodeAt(this.i);
    const start = this.i;
    while (c >= 48 && c <= 57) {
      whole = whole * 10 + (c - 48);
      c = t.charCodeAt(++this.i);
    }
    if (this.i === start) throw this.error('expected a sample time');
    let ms = whole * 1000;
    if (c === DOT) {
      let scale = 100;
      c = t.charCodeAt(++this.i);
      while (c >= 48 && c <= 57) {
        ms += (c - 48) * scale;
        scale /= 10;
        c = t.charCodeAt(++this.i);
      }
      ms = Math.round(ms);
    }
    return ms;
  }

  private grow(): void {
    const times = new Float64Array(this.timesMs.length * 2);
    const values = new Float64Array(this.values.length * 2);
    times.set(this.timesMs);
    values.set(this.values);
    this.timesMs = times;
    this.values = values;
  }

  /** A JSON string's contents (no escapes expected in keys). */
  private string(): string {
    this.skipSpace();
    const from = this.i;
    const to = this.skipString();
    return this.text.slice(from + 1, to - 1);
  }

  /** Past the string starting here; the offset after its closing quote. */
  private skipString(): number {
    const t = this.text;
    this.skipSpace();
    if (t.charCodeAt(this.i) !== QUOTE) throw this.error('expected a string');
    let j = this.i + 1;
    for (;;) {
      const c = t.charCodeAt(j);
      if (c === QUOTE) break;
      if (Number.isNaN(c)) throw this.error('unterminated string');
      j += c === BACKSLASH ? 2 : 1;
    }
    this.i = j + 1;
    return this.i;
  }

  /** Past one JSON value (object, array, string or literal); the offset after it. */
  private skipValue(): number {
    this.skipSpace();
    let depth = 0;
    const t = this.text;
    for (;;) {
      const c = t.charCodeAt(this.i);
      if (Number.isNaN(c)) throw this.error('unterminated value');
      if (c === QUOTE) {
        this.skipString();
        if (depth === 0) return this.i;
        continue;
      }
      if (c === OPEN_BRACE || c === OPEN_BRACKET) depth++;
      else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
        if (depth === 0) return this.i;
        depth--;
        if (depth === 0) return ++this.i;
      } else if (depth === 0 && c === COMMA) return this.i;
      this.i++;
    }
  }

  private skipSpace(): void {
    const t = this.text;
    let c = t.charCodeAt(this.i);
    while (c === 32 || c === 10 || c === 13 || c === 9) c = t.charCodeAt(++this.i);
  }

  private peek(): number {
    this.skipSpace();
    return this.text.charCodeAt(this.i);
  }

  private next(): number {
    this.skipSpace();
    return this.text.charCodeAt(this.i++);
  }

  private expect(code: number): void {
    if (this.next() !== code) throw this.error(`expected ${String.fromCharCode(code)}`);
  }

  private error(what: string): MatrixFormatError {
    const near = this.text.slice(Math.max(0, this.i - 20), this.i + 20);
    return new MatrixFormatError(
      `not a query_range matrix at offset ${this.i}: ${what} (near ${JSON.stringify(near)})`,
    );
  }
}
