import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { damagedInputs, thrownBy, unprintable } from '@fabscope/test-support';
import { ParseError } from '@fabscope/topology';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseOpapmaquery, parsePerfquery } from '../src/index.ts';
import { FIXTURES } from './helpers.ts';

// The tools' outputs as they come: other attributes, stderr between blocks, output cut short,
// and everything that is not the tool's output at all. Fixture sources: fixtures/README.md.
const fixture = (path: string) => readFileSync(join(FIXTURES, path), 'utf8');
const RANDOM_BYTES = Buffer.from(Array.from({ length: 512 }, (_, i) => (i * 7919 + 13) % 256)).toString(
  'utf8',
);
const NOT_THEIRS = {
  empty: '',
  'random bytes': RANDOM_BYTES,
  'ibnetdiscover -p': fixture('ibnetdiscover/fabric-p.out'),
  'node_exporter exposition': fixture('node-exporter/mixed.prom'),
  '/proc/net/dev': fixture('procfs-mixed/net/dev'),
};

/** Runs `parse`; anything it throws must be a ParseError naming its line, in printable text. */
function parseErrorOf(parse: () => unknown): ParseError | undefined {
  const e = thrownBy(parse, ParseError);
  if (e) {
    expect(e.line, e.message).toBeGreaterThan(0);
    expect(unprintable(e.message), e.message).toEqual([]);
  }
  return e;
}

describe('perfquery output', () => {
  it('keeps the LID of every block: -E receive error details and basic PortCounters too', () => {
    const [details] = parsePerfquery(fixture('perfquery/rcverr-E.out'));
    expect(details).toMatchObject({
      attribute: 'PortRcvErrorDetails',
      lid: 12,
      port: 7,
      transmitBytes: null,
    });
    expect(details?.counters).toMatchObject({ PortLocalPhysicalErrors: 12n, PortDLIDMappingErrors: 3n });
    const [basic] = parsePerfquery(fixture('perfquery/basic-saturated.out'));
    expect(basic).toMatchObject({ attribute: 'PortCounters', lid: 23, port: 1 });
  });

  it('reads output without header lines (old versions), one block per PortSelect', () => {
    const blocks = fixture('perfquery/basic-saturated.out').split('\n').slice(1).join('\n');
    const ports = parsePerfquery(
      `${blocks}${blocks.replace('PortSelect:......................1', 'PortSelect:......................2')}`,
    );
    expect(ports.map((p) => [p.lid, p.port, p.transmitBytes])).toEqual([
      [null, 1, 4294967295n * 4n],
      [null, 2, 4294967295n * 4n],
    ]);
    expect(() => parsePerfquery(blocks.split('\n').slice(1).join('\n'))).toThrow(
      /^perfquery: line 1: "CounterSelect" before any "# Port counters: Lid N port P" header or PortSelect/,
    );
  });

  it('reads past stderr lines between blocks', () => {
    const ports = parsePerfquery(fixture('perfquery/stderr-between.out'));
    expect(ports.map((p) => [p.lid, p.port, p.transmitBytes])).toEqual([
      [1719, 10, 39078804993378n * 4n],
      [1719, 11, 21337911250n * 4n],
    ]);
  });

  it('refuses output cut mid-number or mid-block, naming the line', () => {
    const text = fixture('perfquery/stderr-between.out');
    const midNumber = text.slice(0, text.indexOf('39078804993378') + 3);
    expect(() => parsePerfquery(midNumber)).toThrow(
      'perfquery: line 4: the output ends in the middle of "PortXmitData:....................390" (no newline): it is cut short',
    );
    const midBlock = `${text.split('\n').slice(0, 5).join('\n')}\n`;
    expect(() => parsePerfquery(midBlock)).toThrow(
      /^perfquery: line 6: the PortCountersExtended block of port 10 \(from line 1\) ends without PortXmitPkts, PortRcvPkts/,
    );
    // every cut inside the file is refused, except at the end of a complete block
    // (a cut inside the stderr lines after the first block leaves one complete block)
    const stderrFrom = text.indexOf('src/query_smp.c') - 1;
    const stderrTo = text.indexOf('# Port extended counters: Lid 1719 port 11');
    for (let cut = 1; cut < text.length - 1; cut++) {
      if (cut >= stderrFrom && cut <= stderrTo) continue;
      expect(
        parseErrorOf(() => parsePerfquery(text.slice(0, cut))),
        `cut at ${cut}`,
      ).toBeDefined();
    }
  });

  it.each(Object.entries(NOT_THEIRS))('refuses %s with a ParseError naming a line', (_name, text) => {
    expect(parseErrorOf(() => parsePerfquery(text))).toBeDefined();
  });

  it('refuses opapmaquery output', () => {
    expect(parseErrorOf(() => parsePerfquery(fixture('opapmaquery/edge1-port1.out')))?.line).toBe(1);
  });

  it('property: any input gives blocks or a ParseError with a line, never another exception', () => {
    for (const file of readdirSync(join(FIXTURES, 'perfquery'))) {
      const real = fixture(`perfquery/${file}`);
      if (real === '') continue;
      fc.assert(
        fc.property(damagedInputs(real), (text) => {
          parseErrorOf(() => parsePerfquery(text));
        }),
        { numRuns: 200 },
      );
    }
  });
});

describe('opapmaquery getportstatus output', () => {
  it('refuses output cut mid-number or before the packet counters, naming the line', () => {
    const text = fixture('opapmaquery/edge1-port1.out');
    const midNumber = text.slice(0, text.indexOf('1464843000') + 4);
    expect(() => parseOpapmaquery(midNumber)).toThrow(
      /^opapmaquery: line 5: the output ends in the middle of "Xmit Pkts\s+1464" \(no newline\): it is cut short/,
    );
    const beforeReceive = `${text.split('\n').slice(0, 7).join('\n')}\n`;
    expect(() => parseOpapmaquery(beforeReceive)).toThrow(
      /^opapmaquery: line 8: port 1 \(from line 1\) ends without Rcv Data, Rcv Pkts/,
    );
  });

  it('refuses output cut after the data counters or inside the last section, not reading the rest as unknown', () => {
    const lines = fixture('opapmaquery/edge1-port1.out').split('\n');
    const upTo = (n: number) => `${lines.slice(0, n).join('\n')}\n`;
    // Data and packets present, every error section missing.
    expect(() => parseOpapmaquery(upTo(10))).toThrow(
      /^opapmaquery: line 11: port 1 \(from line 1\) ends without "Errors: Signal Integrity", "Errors: Security", "Errors: Routing and Other Errors", "Performance: Congestion", "Performance: Bubbles": the output is cut short$/,
    );
    // Cut inside Performance: Bubbles, before its last counter.
    expect(() => parseOpapmaquery(upTo(36))).toThrow(/ends without Rcv Bubble: the output is cut short$/);
    // Whole: every counter read.
    const [port] = parseOpapmaquery(upTo(37));
    expect(port?.counters['Rcv Bubble']).toBe(0n);
    expect(port?.transmitWait).toBe(4200n);
  });

  it.each(Object.entries(NOT_THEIRS))('refuses %s with a ParseError naming a line', (_name, text) => {
    expect(parseErrorOf(() => parseOpapmaquery(text))).toBeDefined();
  });

  it('refuses perfquery output', () => {
    // line 1, the header, reads as a comment here
    expect(parseErrorOf(() => parseOpapmaquery(fixture('perfquery/stderr-between.out')))?.line).toBe(2);
  });

  it('property: any input gives ports or a ParseError with a line, never another exception', () => {
    for (const file of readdirSync(join(FIXTURES, 'opapmaquery'))) {
      fc.assert(
        fc.property(damagedInputs(fixture(`opapmaquery/${file}`)), (text) => {
          parseErrorOf(() => parseOpapmaquery(text));
        }),
        { numRuns: 200 },
      );
    }
  });
});
