import { readFileSync } from 'node:fs';
import { damagedInputs, thrownBy, unprintable } from '@fabscope/test-support';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  applyIbroute,
  buildScenario,
  detectTopologyFormat,
  fatTreeRouting,
  ParseError,
  parsePortsReportLines,
  parseTopology,
  routeBetween,
} from '../src/index.ts';

// Real formats the tests elsewhere do not cover: OpenSM's own LFT dump, opaxlattopology's
// GUID-less topology XML, hostile and cut-short XML, stderr between ibnetdiscover -p records.
// Fixture sources are in fixtures/README.md.
const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8');

/** Runs `parse`; anything it throws must be a ParseError naming a line or an XML element. */
function resultOrParseError(parse: () => unknown): ParseError | undefined {
  const e = thrownBy(parse, ParseError);
  if (e) {
    expect(e.line !== undefined || e.element !== undefined, e.message).toBe(true);
    // printable text only, whatever the input was
    expect(unprintable(e.message), e.message).toEqual([]);
  }
  return e;
}

describe('OpenSM opensm-lfts.dump', () => {
  const fabric = buildScenario('ar-demo');
  const computed = fatTreeRouting(fabric);
  const index = (name: string) => fabric.nodeByName.get(name)?.index ?? -1;

  it('is read like ibroute output: `#` comments, decimal ranges, quoted descriptions, every switch replaced', () => {
    const fromOpensm = applyIbroute(fabric, computed, fixture('opensm-lfts.dump'));
    const fromIbroute = applyIbroute(fabric, computed, fixture('ibroute-edge1.txt'));
    expect(fromOpensm.engine).toBe('ibroute');
    expect(fromOpensm.bySwitch[index('edge1')]).toEqual(fromIbroute.bySwitch[index('edge1')]);
    for (const name of ['edge1', 'edge2', 'core1', 'core2']) {
      expect(fromOpensm.bySwitch[index(name)]).not.toBe(computed.bySwitch[index(name)]);
    }
    expect(Array.from(fromOpensm.bySwitch[index('core1')] ?? []).slice(1, 9)).toEqual([
      1, 1, 2, 1, 2, 1, 2, 0,
    ]);
    expect(routeBetween(fabric, fromOpensm, 'nodeA', 'nodeC').hops.map((h) => h.node)).toContain('core1');
  });

  it('refuses a dump cut anywhere inside a table, naming the line where it stops', () => {
    const text = fixture('opensm-lfts.dump');
    const ends = new Set(
      [...text.matchAll(/lids dumped\n/g)].map((m) => (m.index as number) + m[0].length - 1),
    );
    for (let cut = 1; cut < text.length; cut++) {
      if (ends.has(cut) || ends.has(cut - 1)) continue;
      const error = resultOrParseError(() => applyIbroute(fabric, computed, text.slice(0, cut)));
      expect(error, `cut at ${cut}`).toBeDefined();
    }
    const cutAfterEntry = text.split('\n').slice(0, 5).join('\n');
    expect(() => applyIbroute(fabric, computed, cutAfterEntry)).toThrow(
      /^ibroute: line 5: the table of switch "edge1" \(from line 1\) ends without its "N lids dumped" line/,
    );
  });

  it('checks ibroute’s "N valid lids dumped" against the entries, and prints binary input escaped', () => {
    const text = fixture('ibroute-edge1.txt').replace('8 valid lids dumped', '9 valid lids dumped');
    expect(() => applyIbroute(fabric, computed, text)).toThrow(/says 9 valid lids but lists 8/);
    const binary = `${fixture('ibroute-edge1.txt').split('\n')[0]}\n\u001b[2J\u0000\u0007garbage\n`;
    const error = resultOrParseError(() => applyIbroute(fabric, computed, binary));
    expect(error?.message).toContain('\\x1b[2J\\x00\\x07garbage');
  });

  it('property: any input gives tables or a ParseError with a line, never another exception', () => {
    fc.assert(
      fc.property(damagedInputs(fixture('opensm-lfts.dump')), (text) => {
        resultOrParseError(() => applyIbroute(fabric, computed, text));
      }),
      { numRuns: 300 },
    );
  });
});

describe('opareport topology XML as opaxlattopology writes it (no NodeGUID)', () => {
  const fabric = parseTopology(fixture('opaxlattopology.xml'));

  it('keys nodes by NodeDesc: FIs and switches, links with their ports and rates, the spare FI uncabled', () => {
    expect(detectTopologyFormat(fixture('opaxlattopology.xml'))).toBe('opareport');
    expect(fabric.fabricType).toBe('omnipath');
    expect(fabric.nodes.map((n) => [n.name, n.type]).sort()).toEqual([
      ['core01', 'switch'],
      ['edge01', 'switch'],
      ['n001 hfi1_0', 'host'],
      ['n002 hfi1_0', 'host'],
      ['n003 hfi1_0', 'host'],
    ]);
    expect(fabric.links.map((l) => [l.id, l.kind, l.rateGbps])).toEqual([
      ['n001 hfi1_0/1--edge01/1', 'host', 100],
      ['n002 hfi1_0/1--edge01/2', 'host', 100],
      ['edge01/25--core01/1', 'isl', 100],
      ['edge01/26--core01/2', 'isl', 100],
    ]);
    expect(fabric.nodeByName.get('core01')?.tier).toBe(2);
    expect(new Set(fabric.nodes.map((n) => n.guid)).size).toBe(5);
  });

  it('keeps two nodes that share a description apart when they have GUIDs', () => {
    const twins = parseTopology(fixture('opa-topology.xml').replace('opa02 &boom; hfi1_0', 'opa01 hfi1_0'));
    expect(twins.nodes.filter((n) => n.description === 'opa01 hfi1_0').map((n) => n.guid)).toEqual([
      '0x0011750101000a01',
      '0x0011750101000a02',
    ]);
  });

  it('names the line and the element of a bad value', () => {
    const text = fixture('opaxlattopology.xml').replace('<PortNum>2</PortNum>', '<PortNum>two</PortNum>');
    expect(() => parseTopology(text)).toThrow(
      'opareport topology: line 38: <LinkSummary> <Link> #2 <Port> #2: expected <PortNum> 1..254, got "two"',
    );
  });

  it('refuses a DOCTYPE with external or parameter entities with a ParseError, not a parser stack', () => {
    const error = resultOrParseError(() => parseTopology(fixture('doctype-external.xml')));
    expect(error?.message).toBe(
      'opareport topology: line 3: <!DOCTYPE>: a DOCTYPE with external or parameter entities is not read (an opareport file has none)',
    );
    const system = fixture('opa-topology.xml').replace(
      '<!ENTITY boom "expanded entity">',
      '<!ENTITY boom SYSTEM "file:///etc/passwd">',
    );
    expect(() => parseTopology(system)).toThrow(/^opareport topology: line 2: <!DOCTYPE>:/);
  });

  it('names the element left open and the line where a cut file ends', () => {
    const text = fixture('opaxlattopology.xml');
    const lines = text.split('\n');
    for (let n = 3; n < lines.length - 2; n++) {
      const cut = lines.slice(0, n).join('\n');
      const error = resultOrParseError(() => parseTopology(cut));
      expect(error?.line, `cut after line ${n}`).toBe(n);
      expect(error?.message).toMatch(/the file ends inside <\w+> \(opened at line \d+\): expected <\/\w+>/);
    }
    expect(() => parseTopology(lines.slice(0, 20).join('\n'))).toThrow(
      'opareport topology: line 20: <Port>: the file ends inside <Port> (opened at line 18): expected </Port>; the file is cut short',
    );
  });

  it('property: any input gives a fabric or a ParseError with a line or element', () => {
    // XML made of markup fragments: unterminated comments, DOCTYPE subsets, CDATA, stray brackets
    const markup = fc
      .array(
        fc.constantFrom(
          '<',
          '>',
          '<!',
          '[',
          ']',
          '<!--',
          '-->',
          '<?',
          '?>',
          '</',
          '/>',
          '<![CDATA[',
          ']]>',
          '<!DOCTYPE Report',
          '<!ENTITY a "b">',
          '<Report>',
          '</Report>',
          '<Nodes>',
          '<FIs>',
          '<Node>',
          '</Node>',
          '<NodeDesc>',
          'x',
          ' ',
          '\n',
          '"',
        ),
        { maxLength: 60 },
      )
      .map((parts) => parts.join(''));
    fc.assert(
      fc.property(markup, (text) => {
        resultOrParseError(() => parseTopology(text, { format: 'opareport' }));
      }),
      { numRuns: 2000 },
    );
    for (const real of [fixture('opaxlattopology.xml'), fixture('opa-topology.xml')]) {
      fc.assert(
        fc.property(damagedInputs(real), (text) => {
          resultOrParseError(() => parseTopology(text, { format: 'opareport' }));
        }),
        { numRuns: 300 },
      );
    }
  });
});

describe('ibnetdiscover -p (one parser for the topology and the collectors)', () => {
  it('skips stderr lines between records and reads unquoted uncabled names', () => {
    const text = fixture('ports-report-stderr.out');
    const lines = parsePortsReportLines(text);
    expect(lines.map((l) => l.line)).toEqual([1, 2, 4, 6, 7, 8]);
    expect(lines.at(-1)?.local.name).toBe('MF0;ib-i4l1s01:MSB7700/U1');
    const fabric = parseTopology(text);
    expect(fabric.links.map((l) => l.id)).toEqual(['o0001/1--ib-i1l1s01/10', 'ib-i1l1s01/36--ib-i4l1s01/36']);
    expect(fabric.nodeByName.get('ib-i4l1s01')?.ports[38]).toBeDefined();
  });

  it('refuses a line that is neither, wherever it is, naming it', () => {
    const text = fixture('ports-report-stderr.out').replace('ibwarn: [2519]', 'warning [2519]');
    expect(() => parsePortsReportLines(text)).toThrow(
      /^ibnetdiscover -p: line 5: expected "TYPE LID PORT GUID/,
    );
  });

  it('property: any input gives port lines or a ParseError with a line', () => {
    for (const real of [fixture('ports-report-stderr.out'), fixture('ports-report.out')]) {
      fc.assert(
        fc.property(damagedInputs(real), (text) => {
          resultOrParseError(() => parsePortsReportLines(text));
          resultOrParseError(() => parseTopology(text, { format: 'ibnetdiscover-ports' }));
        }),
        { numRuns: 300 },
      );
    }
  });
});

describe('ibnetdiscover and ibsim topology dumps', () => {
  it('skips stderr lines and comments anywhere but refuses any other line, even before the first record', () => {
    const dump = fixture('quirks.topo');
    expect(() =>
      parseTopology(`src/query_smp.c:228; umad (DR path slid 0) bad status 110\n${dump}`),
    ).not.toThrow();
    expect(() => parseTopology(`Topology of cluster A\n${dump}`, { format: 'ibnetdiscover' })).toThrow(
      /^ibnetdiscover: line 1: expected a node header/,
    );
  });

  it('property: any input gives a fabric or a ParseError with a line', () => {
    for (const real of [fixture('quirks.topo'), fixture('trunked.net')]) {
      fc.assert(
        fc.property(damagedInputs(real), (text) => {
          resultOrParseError(() => parseTopology(text, { format: 'ibnetdiscover' }));
        }),
        { numRuns: 300 },
      );
    }
  });
});

describe('hostile input', () => {
  const fabric = buildScenario('ar-demo');
  const tables = fatTreeRouting(fabric);
  const long = (unit: string, length: number) =>
    unit.repeat(Math.ceil(length / unit.length)).slice(0, length);

  it('refuses over-long lines before any line pattern runs (a 64-byte description never needs them)', () => {
    const ports = `CA 1 1 0x1 4x EDR - CA 2 1 0x2 ( '${long("' - '", 100_000)}' )`;
    expect(() => parsePortsReportLines(ports)).toThrow(
      /^ibnetdiscover -p: line 1: a line of \d+ characters \(at most 4096 expected\)/,
    );
    expect(resultOrParseError(() => applyIbroute(fabric, tables, long(' guid ', 100_000)))?.line).toBe(1);
    expect(resultOrParseError(() => parseTopology(`\n${long('[1] "a', 100_000)}`))?.line).toBe(2);
  });

  it('gives a ParseError for XML made of unterminated comments, DOCTYPEs or open elements (one linear scan)', () => {
    for (const text of [
      `<${long('<!--', 300_000)}`,
      long('<!DOCTYPE[', 300_000),
      `<Report>${long('<Node>', 300_000)}`,
    ]) {
      expect(resultOrParseError(() => parseTopology(text, { format: 'opareport' }))).toBeDefined();
    }
  });
});
