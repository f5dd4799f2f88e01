import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { detectTopologyFormat, type Fabric, ParseError, parseTopology } from '../src/index.ts';

const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8');
const count = (f: Fabric) => ({
  switches: f.nodes.filter((n) => n.type === 'switch').length,
  adapters: f.nodes.filter((n) => n.type !== 'switch').length,
  cables: f.links.length,
});
const link = (f: Fabric, id: string) => f.links.find((l) => l.id === id);

describe('ibnetdiscover topology dumps', () => {
  const fabric = parseTopology(fixture('quirks.topo'));

  it('is detected and counted: 2 switches, 3 CAs, 7 cables (each listed from both ends)', () => {
    expect(detectTopologyFormat(fixture('quirks.topo'))).toBe('ibnetdiscover');
    expect(count(fabric)).toEqual({ switches: 2, adapters: 3, cables: 7 });
    expect(fabric.fabricType).toBe('infiniband');
  });

  it('skips the stderr line before the first record', () => {
    expect(fabric.nodeByName.has('ibwarn')).toBe(false);
  });

  it('keeps a switch port cabled to the same switch as an ISL', () => {
    expect(link(fabric, 'S-0002c90300ff0001/17--S-0002c90300ff0001/18')).toMatchObject({
      kind: 'isl',
      rateGbps: 40,
    });
  });

  it('maps width × speed to data rates across SDR, QDR, FDR, EDR, HDR and NDR', () => {
    const rates = Object.fromEntries(fabric.links.map((l) => [l.widthSpeed, l.rateGbps]));
    expect(rates).toEqual({
      '4xFDR': 56,
      '4xEDR': 100,
      '4xQDR': 40,
      '4xHDR': 200,
      '1xSDR': 2.5,
      '2xNDR': 200,
    });
  });

  it('keeps GUIDs, LIDs, LMC and descriptions, and a CA with two cabled ports', () => {
    const cn002 = fabric.nodeByName.get('H-0002c90300a1b2d0');
    expect(cn002).toMatchObject({
      type: 'host',
      guid: '0x0002c90300a1b2d0',
      description: 'cn002 HCA-1',
      lid: 12,
      lmc: 1,
    });
    expect(cn002?.ports[1]).toMatchObject({ lid: 12, guid: '0x0002c90300a1b2d1' });
    expect(cn002?.ports[2]).toMatchObject({ lid: 14, guid: '0x0002c90300a1b2d2' });
    expect(fabric.nodes[fabric.nodeByLid[15] as number]?.name).toBe('H-0002c90300a1b2d0'); // LMC 1: 14 and 15
    expect(fabric.nodeByName.get('S-0002c90300ff0002')).toMatchObject({ lid: 2, portCount: 40, tier: 1 });
  });

  it('reads ibsim nets with w= widths and trunked ISLs', () => {
    const net = parseTopology(fixture('trunked.net'));
    expect(count(net)).toEqual({ switches: 2, adapters: 3, cables: 5 });
    expect(
      net.links.filter((l) => l.a.node === 'sw-a' && l.b.node === 'sw-b').map((l) => l.rateGbps),
    ).toEqual([30, 10]);
    expect(link(net, 'hca-2/1--sw-a/2')?.rateGbps).toBe(2.5);
  });

  it.each([
    [
      'Switch 8 "s1"\n[1] "h1"[1]\n[2] this is not a port\n',
      3,
      /expected a node header .* got "\[2\] this is not a port"/,
    ],
    ['Switch 8 "s1"\n[9] "h1"[1]\n', 2, /"s1" has 8 ports, not 9/],
    ['Switch 8 "s1"\n[1] "h1"[1] # "h" lid 2 4xWAT\n', 2, /unknown link width or speed "4xWAT"/],
    [
      'Switch 8 "s1"\n[1] "h1"[1]\n[2] "h2"[1]\n\nCa 1 "h1"\n[1] "s1"[2]\n',
      6,
      /cabled to two different ports \(also at line 2\)/,
    ],
  ])('names the line of a malformed file (%#)', (text, line, reason) => {
    let error: unknown;
    try {
      parseTopology(text);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ParseError);
    expect((error as ParseError).line).toBe(line);
    expect((error as Error).message).toMatch(new RegExp(`^ibnetdiscover: line ${line}: `));
    expect((error as Error).message).toMatch(reason);
  });
});

describe('ibnetdiscover -p port reports', () => {
  const fabric = parseTopology(fixture('ports-report.out'));

  it('is detected, deduplicates both listings and keeps unlinked ports uncabled', () => {
    expect(detectTopologyFormat(fixture('ports-report.out'))).toBe('ibnetdiscover-ports');
    expect(count(fabric)).toEqual({ switches: 3, adapters: 2, cables: 4 });
    const leaf01 = fabric.nodeByName.get('leaf01');
    expect(leaf01?.ports[2]).toMatchObject({ link: -1 });
    expect(fabric.nodeByName.get('spine01')).toMatchObject({ tier: 2, lid: 2 });
    // `cn002 HCA-1` is MLNX_OFED's `<host> HCA-1`: the node is named by its host.
    expect(fabric.nodeByName.get('cn002')).toMatchObject({
      lid: 12,
      guid: '0x0002c90300a1b2d1',
      description: 'cn002 HCA-1',
    });
    expect(link(fabric, 'cn002/1--leaf02/4')?.rateGbps).toBe(2.5);
  });

  it('names the line of a malformed port line', () => {
    expect(() =>
      parseTopology("SW 1 1 0x01 4x EDR - SW 2 1 0x02 ( 'a' - 'b' )\nSW 1 2 0x01 4x EDR -\n"),
    ).toThrow(/^ibnetdiscover -p: line 2: expected "TYPE LID PORT GUID/);
  });
});

describe('opareport -o topology XML', () => {
  const fabric = parseTopology(fixture('opa-topology.xml'));

  it('is detected and read: FIs, switches, links with their rates', () => {
    expect(detectTopologyFormat(fixture('opa-topology.xml'))).toBe('opareport');
    expect(count(fabric)).toEqual({ switches: 1, adapters: 3, cables: 2 });
    expect(fabric.fabricType).toBe('omnipath');
    expect(fabric.links.map((l) => l.rateGbps)).toEqual([100, 25]);
    expect(fabric.nodeByName.get('edge01')).toMatchObject({
      guid: '0x0011750102000b01',
      type: 'switch',
      portCount: 8,
    });
  });

  it('does not expand entities', () => {
    const names = fabric.nodes.map((n) => n.name);
    expect(names).toContain('opa02 &boom; hfi1_0');
    expect(names.join()).not.toContain('expanded entity');
  });

  it('names the element at fault', () => {
    const broken = fixture('opa-topology.xml').replace(
      /<Port id="0x0011750102000b01:8">[\s\S]*?<\/Port>/,
      '',
    );
    expect(() => parseTopology(broken)).toThrow(
      'opareport topology: line 61: <LinkSummary> <Link> #2 (id "0x0011750101000a02:1"): expected 2 <Port> elements, found 1',
    );
    expect(() => parseTopology('<Report><Nodes><FIs><Node></FIs></Nodes></Report>')).toThrow(
      /line 1: malformed XML/,
    );
  });
});
