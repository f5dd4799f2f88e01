import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ExpositionScanner, LabelBlocks } from '../src/store/exposition-stream.ts';
import { parseExposition, parseExpositionChunks } from './oracles/exposition-chunks.ts';

/** Splits bytes at the given cut points (any byte, also inside a UTF-8 character or a line). */
function split(bytes: Buffer, cuts: number[]): Buffer[] {
  const points = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
  const chunks: Buffer[] = [];
  let start = 0;
  for (const p of points) {
    chunks.push(bytes.subarray(start, p));
    start = p;
  }
  chunks.push(bytes.subarray(start));
  return chunks;
}

const escaped = (v: string) => v.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/"/g, '\\"');

const labelName = fc.constantFrom('node_guid', 'port', 'remote_node_name', 'a', 'device', 'le');
const labelValue = fc.oneof(
  fc.string({ maxLength: 8 }),
  fc.constantFrom('}', '{', '"}', '\\', '\n', 'x"} 1', 'nœud-ü', '="', ''),
);
const labelSet = fc.uniqueArray(fc.tuple(labelName, labelValue), { selector: ([n]) => n, maxLength: 4 });
const value = fc.oneof(
  fc.nat({ max: 2 ** 53 - 1 }).map(String),
  fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }).map(String),
  fc.double({ noNaN: true, noDefaultInfinity: true }).map(String),
  fc.constantFrom('+Inf', '-Inf', 'NaN', '0', '007', '1e3', '-5', '6.4e-10'),
);
const metricName = fc.constantFrom('a_total', 'b', 'fabscope_port_link_up', 'x:y', 'c_total');

/**
 * Expositions as exporters write them: families of series over a shared set of label sets (the
 * ports), in varying order, with comments, blank lines, timestamps and CRLF now and then.
 */
const exposition = fc
  .record({
    ports: fc.array(labelSet, { minLength: 1, maxLength: 6 }),
    families: fc.array(
      fc.record({
        name: metricName,
        series: fc.array(fc.record({ port: fc.nat(), value, timestamp: fc.boolean() }), { maxLength: 8 }),
        help: fc.boolean(),
      }),
      { maxLength: 5 },
    ),
    braces: fc.boolean(),
    crlf: fc.boolean(),
    finalNewline: fc.boolean(),
  })
  .map(({ ports, families, braces, crlf, finalNewline }) => {
    const lines: string[] = [];
    for (const f of families) {
      if (f.help) lines.push(`# HELP ${f.name} some help`, `# TYPE ${f.name} counter`, '');
      for (const s of f.series) {
        const labels = ports[s.port % ports.length] as [string, string][];
        const block =
          labels.length === 0 && !braces
            ? ''
            : `{${labels.map(([n, v]) => `${n}="${escaped(v)}"`).join(',')}}`;
        lines.push(`${f.name}${block} ${s.value}${s.timestamp ? ' 1700000000000' : ''}${crlf ? '\r' : ''}`);
      }
    }
    return lines.join('\n') + (finalNewline ? '\n' : '');
  });

describe('parseExpositionChunks (streaming)', () => {
  it('reads the same samples as parseExposition, however the body is cut', () => {
    fc.assert(
      fc.property(exposition, fc.array(fc.nat(), { maxLength: 12 }), (text, cuts) => {
        const chunks = split(Buffer.from(text, 'utf8'), cuts);
        expect(parseExpositionChunks(chunks)).toEqual(parseExposition(text));
      }),
      { numRuns: 400 },
    );
  });

  it('keeps only wanted metrics, as parseExposition does', () => {
    fc.assert(
      fc.property(
        exposition,
        fc.uniqueArray(metricName, { maxLength: 3 }),
        fc.array(fc.nat(), { maxLength: 6 }),
        (text, names, cuts) => {
          const wanted = new Set(names);
          const chunks = split(Buffer.from(text, 'utf8'), cuts);
          expect(parseExpositionChunks(chunks, wanted)).toEqual(parseExposition(text, wanted));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('names the line of malformed input with the messages of parseExposition', () => {
    const bad = ['a 1\nb{x="1} 2\n', 'a 1\n\nb zz\n', 'a 1\n{x="1"} 2\n', 'a{x="1"}\n', 'abc\n', 'a{x 1\n'];
    for (const text of bad) {
      const expected = (() => {
        try {
          parseExposition(text);
          return 'no error';
        } catch (error) {
          return (error as Error).message;
        }
      })();
      expect(expected).not.toBe('no error');
      for (const cuts of [[], [1], [3, 7]]) {
        expect(() => parseExpositionChunks(split(Buffer.from(text), cuts))).toThrow(expected);
      }
    }
  });
});

describe('ExpositionScanner label blocks', () => {
  const page = (values: number[]) =>
    ['a', 'b']
      .map((name) => values.map((v, i) => `${name}{port="${i}",x="}"} ${v}`).join('\n'))
      .join('\n# between families\n');

  it('numbers a port once and keeps its number from one scrape to the next', () => {
    const blocks = new LabelBlocks();
    const scan = (text: string) => {
      const seen: [string, number, number][] = [];
      const scanner = new ExpositionScanner(
        ['a', 'b'],
        (m, b, v) => seen.push([scanner.nameOf(m), b, v]),
        blocks,
      );
      scanner.push(Buffer.from(text));
      scanner.end();
      return seen;
    };
    const first = scan(page([10, 20, 30]));
    expect(first).toEqual([
      ['a', 0, 10],
      ['a', 1, 20],
      ['a', 2, 30],
      ['b', 0, 10],
      ['b', 1, 20],
      ['b', 2, 30],
    ]);
    expect(blocks.keys).toEqual(['port="0",x="}"', 'port="1",x="}"', 'port="2",x="}"']);
    // Next scrape, ports in another order and one more: the predictions miss, the numbers hold.
    const second = scan('a{port="2",x="}"} 1\na{port="3",x="}"} 2\na{port="0",x="}"} 3\n');
    expect(second).toEqual([
      ['a', 2, 1],
      ['a', 3, 2],
      ['a', 0, 3],
    ]);
  });

  it('keeps the latest sample timestamp of the lines it reads, and none when no line has one', () => {
    const scanOnce = (text: string) => {
      const values: number[] = [];
      const scanner = new ExpositionScanner(['a', 'b'], (_m, _b, v) => values.push(v));
      scanner.push(Buffer.from(text));
      scanner.end();
      return { values, stamp: scanner.latestTimestampMs };
    };
    expect(scanOnce('a{p="1"} 10 1795436257975\na{p="2"} 2.5e3 1795436257976\nb 7\n')).toEqual({
      values: [10, 2500, 7],
      stamp: 1795436257976,
    });
    expect(scanOnce('a{p="1"} 10\nb 7\n').stamp).toBeNull();
  });

  it('does not take a longer block for a predicted shorter one', () => {
    // b's first line is predicted to be a's first block, p="1", which is a prefix of p="1",q="2".
    const samples = parseExpositionChunks([
      Buffer.from('a{p="1"} 1\na{p="2"} 2\nb{p="1",q="2"} 3\nb{p="2"} 4\n'),
    ]);
    expect(samples.map((s) => s.labels)).toEqual([{ p: '1' }, { p: '2' }, { p: '1', q: '2' }, { p: '2' }]);
  });
});
