import { readFileSync } from 'node:fs';
import { damagedInputs, formatIbnetdiscover, thrownBy, unprintable } from '@fabscope/test-support';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type Fabric,
  FabricBuilder,
  generatedGuid,
  ParseError,
  parseIbnetdiscover,
  parseTopology,
} from '../src/index.ts';

// An ibnetdiscover dump cut short is a ParseError naming a line, never a smaller fabric; what a
// partial discovery prints (stderr lines, nodes never reached, self-cabled ports) is still read.
const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8');

/** Nodes and cables by name, ports and rate: what two parses must agree on. */
const shape = (f: Fabric) => ({
  nodes: f.nodes.map((n) => `${n.name} ${n.type} ${n.guid} lid ${n.lid} ${n.description ?? ''}`).sort(),
  links: f.links
    .map((l) => {
      const [a, b] = [`${l.a.node}/${l.a.port}`, `${l.b.node}/${l.b.port}`].sort();
      return `${a} -- ${b} ${l.rateGbps}`;
    })
    .sort(),
});

const parse = (text: string) => parseTopology(text, { format: 'ibnetdiscover' });

/** The parse, or the ParseError (with a line, printable) it threw; anything else fails the test. */
function parsedOrError(text: string): Fabric | ParseError {
  const error = thrownBy(() => parse(text), ParseError);
  if (!error) return parse(text);
  expect(error.line, error.message).toBeGreaterThanOrEqual(1);
  expect(unprintable(error.message)).toEqual([]);
  return error;
}

/** Where the dump's records end: before each blank line that starts the next record, and at the end. */
function recordEnds(text: string): number[] {
  const ends = [text.length];
  for (let i = text.indexOf('\n\n'); i >= 0; i = text.indexOf('\n\n', i + 1)) ends.push(i + 1);
  return ends.sort((a, b) => a - b);
}

/**
 * The property for one cut: the cut text parses to the fabric of the whole records before the cut
 * (and keeps every cable its complete port lines describe), or it is a ParseError naming a line.
 */
function checkCut(text: string, cut: number): void {
  const head = text.slice(0, cut);
  const result = parsedOrError(head);
  if (result instanceof ParseError) return;
  const whole = text.slice(0, Math.max(...recordEnds(text).filter((e) => e <= cut)));
  const expected = parsedOrError(whole);
  expect(expected, `cut at ${cut} parsed, but its whole records do not`).not.toBeInstanceOf(ParseError);
  expect(shape(result), `cut at ${cut}`).toEqual(shape(expected as Fabric));
  // Every complete port line of the cut text is a cable of the result.
  let record: string | undefined;
  for (const line of head.split('\n').slice(0, -1)) {
    const header = /^(?:Switch|Ca|Hca|Rt)\s+\d+\s+"([^"]+)"/.exec(line.trim());
    if (header) record = header[1];
    const port = /^\[(\d+)\](?:\([0-9a-f]+\))?\s+"([^"]+)"\[(\d+)\]/.exec(line.trim());
    if (!port || record === undefined) continue;
    const node = result.nodeByName.get(record);
    const link = result.links[node?.ports[Number(port[1])]?.link ?? -1];
    const far = link?.a.node === record && link.a.port === Number(port[1]) ? link?.b : link?.a;
    expect(far, `cut at ${cut}: ${line}`).toEqual({ node: port[2], port: Number(port[3]) });
  }
}

/**
 * A small fabric as ibnetdiscover finds one: switches cabled together (trunks and self-cabled
 * ports too), hosts on switch ports, a second host port cabled or not, mixed rates; connected, as
 * everything ibnetdiscover prints is reached from the host it ran on (host0, the first host record).
 */
const fabrics = fc
  .record({
    switches: fc.integer({ min: 1, max: 4 }),
    hosts: fc.integer({ min: 1, max: 5 }),
    picks: fc.array(fc.nat(), { minLength: 40, maxLength: 40 }),
    extra: fc.array(fc.tuple(fc.nat(), fc.nat(), fc.nat(), fc.nat()), { maxLength: 6 }),
    rates: fc.array(fc.constantFrom(10, 40, 56, 100, 200), { minLength: 20, maxLength: 20 }),
  })
  .map(({ switches, hosts, picks, extra, rates }) => {
    const b = new FabricBuilder('random', 'infiniband');
    let pick = 0;
    const next = (n: number) => (picks[pick++ % picks.length] as number) % n;
    const rate = () => rates[pick % rates.length] as number;
    const freePort = (name: string) => {
      const node = b.node(name);
      for (let p = 1; node && p <= node.portCount; p++) if (!node.ports[p]) return p;
      return undefined;
    };
    const cable = (a: string, z: string, pa = freePort(a), pz = a === z ? undefined : freePort(z)) => {
      const zPort = pz ?? (a === z ? freePortAfter(z, pa) : undefined);
      if (pa !== undefined && zPort !== undefined) b.connect(a, pa, z, zPort, rate());
    };
    const freePortAfter = (name: string, after: number | undefined) => {
      const node = b.node(name);
      for (let p = (after ?? 0) + 1; node && p <= node.portCount; p++) if (!node.ports[p]) return p;
      return undefined;
    };
    for (let i = 0; i < switches; i++) {
      b.addNode({ name: `sw${i}`, type: 'switch', guid: generatedGuid(1, i), portCount: 8 });
      if (i > 0) cable(`sw${i}`, `sw${next(i)}`);
    }
    for (let i = 0; i < hosts; i++) {
      b.addNode({ name: `host${i} mlx5_0`, type: 'host', guid: generatedGuid(0, i), portCount: 2 });
      cable(`host${i} mlx5_0`, `sw${next(switches)}`);
      if (next(2) === 1) cable(`host${i} mlx5_0`, `sw${next(switches)}`);
    }
    for (const [i, j] of extra) cable(`sw${i % switches}`, `sw${j % switches}`);
    return b.build();
  });

describe('ibnetdiscover dumps cut short', () => {
  const dump = fixture('partial-discovery.topo');
  const lines = dump.split('\n');
  const lineOf = (needle: string) => lines.findIndex((l) => l.includes(needle)) + 1;

  it('reads a partial discovery: stderr lines first, a spine it reached one port of, a self-cabled switch', () => {
    const fabric = parse(dump);
    expect(shape(fabric).links).toEqual([
      'H-0002c90300b0c1d0/1 -- S-0002c90300e0f0a0/1 100',
      'H-0002c90300b0c2e0/1 -- S-0002c90300e0f0a0/2 200',
      'S-0002c90300e0f0a0/19 -- S-0002c90300e0f0b0/19 200',
      'S-0002c90300e0f0a0/33 -- S-0002c90300e0f0a0/34 100',
    ]);
    expect(fabric.nodeByName.get('S-0002c90300e0f0b0')).toMatchObject({ portCount: 40, lid: 9 });
  });

  it('refuses a dump cut mid-record, naming the cable its lost line listed from the other end', () => {
    // Cut after the last record's header: its port line is gone, the leaf still lists that cable.
    const cut = lines.slice(0, lineOf('Ca\t1')).join('\n');
    const error = thrownBy(() => parse(`${cut}\n`), ParseError);
    expect(error?.line).toBe(lineOf('[2]\t"H-0002c90300b0c2e0"'));
    expect(error?.message).toBe(
      `ibnetdiscover: line ${error?.line}: port 2 of "S-0002c90300e0f0a0" is cabled to port 1 of "H-0002c90300b0c2e0", whose record (line ${lineOf('Ca\t1')}) does not list that port: the dump is cut short or lost the line (each cable is listed from both ends)`,
    );
    // Cut inside the switches' records: the host it ran from (a CA, printed after them) is missing.
    const early = lines.slice(0, lineOf('Switch\t36')).join('\n');
    expect(() => parse(`${early}\n`)).toThrow(
      /^ibnetdiscover: line 7: the dump was initiated from node 0x0002c90300b0c1d0 but has no record of it: the dump is cut short/,
    );
  });

  it('refuses a dump cut mid-line, naming the line, even where the rest still reads (4xFDR10 → 4xFDR)', () => {
    const text = dump.replace(/4xHDR\n$/, '4xFDR10\n');
    const cut = text.slice(0, text.length - 3);
    expect(cut.endsWith('lid 7 4xFDR')).toBe(true);
    const error = thrownBy(() => parse(cut), ParseError);
    expect(error?.line).toBe(cut.split('\n').length);
    expect(error?.message).toMatch(/the dump ends inside this line \(no newline after /);
  });

  it('refuses a node named in a port line that has no record of its own, naming where it is named', () => {
    const cut = dump.slice(0, dump.indexOf('\nvendid=0x2c9\ndevid=0x101b\nsysimgguid=0x2c90300b0c2e0'));
    const error = thrownBy(() => parse(`${cut}\n`), ParseError);
    expect(error?.line).toBe(lineOf('[2]\t"H-0002c90300b0c2e0"'));
    expect(error?.message).toMatch(
      /"H-0002c90300b0c2e0" is cabled here but no record describes it \(no Switch\/Ca\/Rt "H-0002c90300b0c2e0" header\)/,
    );
    // ibsim nets too: every node named needs its record.
    expect(() => parse('Switch 8 "s1"\n[1] "h1"[1]\n')).toThrow(
      /^ibnetdiscover: line 2: "h1" is cabled here but no record/,
    );
  });

  it('refuses ids with no header after them', () => {
    const cut = dump.slice(0, dump.lastIndexOf('Ca\t1'));
    const error = thrownBy(() => parse(cut), ParseError);
    expect(error?.line).toBe(lineOf('sysimgguid=0x2c90300b0c2e0') - 2);
    expect(error?.message).toMatch(
      /the record whose ids start here has no Switch\/Ca header: the dump is cut short/,
    );
  });

  it('still reads an ibsim net that lists a cable from one end only', () => {
    const net = parse('Switch 8 "s1"\n[1] "h1"[1]\n\nHca 1 "h1"\n');
    expect(net.links.map((l) => l.id)).toEqual(['h1/1--s1/1']);
  });

  it('property: every cut of a real-format dump gives the fabric of its whole records or a ParseError with a line', () => {
    for (const real of [dump, fixture('quirks.topo')]) {
      for (let cut = 0; cut <= real.length; cut++) checkCut(real, cut);
    }
    // ibsim nets may list a cable from one end only, so a cut can keep less than whole records
    // there; it still gives a fabric or a ParseError with a line.
    const net = fixture('trunked.net');
    for (let cut = 0; cut <= net.length; cut++) parsedOrError(net.slice(0, cut));
  });

  it('property: the same for every cut of dumps of random fabrics (trunks, self-cabled ports, mixed rates)', () => {
    // Half the cuts fall anywhere, half just after a line (where only whole lines are lost).
    const cuts = fc.oneof(
      fc.double({ min: 0, max: 1, noNaN: true }).map((x) => ({ anywhere: x })),
      fc.nat().map((n) => ({ afterLine: n })),
    );
    fc.assert(
      fc.property(fabrics, cuts, (fabric, where) => {
        const text = formatIbnetdiscover(fabric);
        let cut: number;
        if ('anywhere' in where) cut = Math.round(where.anywhere * text.length);
        else {
          const ends = [...text.matchAll(/\n/g)].map((m) => (m.index as number) + 1);
          cut = ends[where.afterLine % ends.length] as number;
        }
        checkCut(text, cut);
      }),
      { numRuns: 500 },
    );
  });

  it('property: a random fabric’s dump reads back whole, and damaged dumps give a fabric or a ParseError with a line', () => {
    fc.assert(
      fc.property(fabrics, (fabric) => {
        const parsed = parseIbnetdiscover(formatIbnetdiscover(fabric));
        expect(parsed.links.length).toBe(fabric.links.length);
        expect(new Set(parsed.nodes.map((n) => n.description))).toEqual(
          new Set(fabric.nodes.map((n) => n.name)),
        );
      }),
      { numRuns: 100 },
    );
    fc.assert(
      fc.property(damagedInputs(dump), (text) => {
        parsedOrError(text);
      }),
      { numRuns: 300 },
    );
  });
});
