import { thrownBy } from '@fabscope/test-support';
import { describe, expect, it } from 'vitest';
import {
  buildScenario,
  type Fabric,
  ParseError,
  parseOpareportTopology,
  parseTopology,
} from '../../src/index.ts';
import { formatOpareportTopology } from '../oracles/write-opareport.ts';

// opareport -o topology XML read in one linear pass: the fabscope writer's files read back whole,
// errors still naming their element and line deep into a big file, and the XML the reader refuses.

const shape = (f: Fabric) => ({
  nodes: f.nodes.map((n) => [n.description ?? n.name, n.type, n.guid, n.portCount]),
  links: f.links.map((l) => {
    const end = (e: Fabric['links'][number]['a']) => {
      const node = f.nodeByName.get(e.node);
      return `${node?.guid}/${e.port}`;
    };
    return [end(l.a), end(l.b), l.rateGbps];
  }),
});

describe('opareport topology XML written by fabscope', () => {
  it('reads back every node (by GUID, named by its description) and every link with its rate', () => {
    for (const scenario of ['ar-demo', 'fat-tree-1152']) {
      const fabric = buildScenario(scenario);
      const parsed = parseTopology(formatOpareportTopology(fabric));
      expect(parsed.fabricType).toBe('omnipath');
      const expected = shape(fabric);
      // The file gives no port counts: each node has as many ports as its highest cabled one.
      const got = shape(parsed);
      expect(got.links).toEqual(expected.links);
      expect(got.nodes.map((n) => n.slice(0, 3)).sort()).toEqual(
        expected.nodes.map((n) => n.slice(0, 3)).sort(),
      );
    }
  });

  // Its time is the bench's (parse-formats); here only that a 13 MB document is read whole.
  it('reads fat-tree-6912 (20,736 links, 13 MB) whole', () => {
    const fabric = buildScenario('fat-tree-6912');
    const parsed = parseOpareportTopology(formatOpareportTopology(fabric));
    expect(parsed.links.length).toBe(20_736);
  });

  it('names the element and its line deep into a big file', () => {
    const xml = formatOpareportTopology(buildScenario('fat-tree-1152'));
    const lines = xml.split('\n');
    // The 2,000th <Link>'s second <Port>: its <PortNum> made wrong.
    let links = 0;
    let at = -1;
    for (let i = 0; i < lines.length && at < 0; i++) {
      if (/^\s*<Link[\s>]/.test(lines[i] as string) && ++links === 2000) {
        let ports = 0;
        for (let j = i + 1; j < lines.length; j++) {
          if (/^\s*<Port[\s>]/.test(lines[j] as string) && ++ports === 2) {
            at = j;
            break;
          }
        }
      }
    }
    const portNum = lines.findIndex((l, i) => i > at && l.includes('<PortNum>'));
    lines[portNum] = '            <PortNum>300</PortNum>';
    const error = thrownBy(() => parseOpareportTopology(lines.join('\n')), ParseError);
    expect(error?.line).toBe(at + 1);
    expect(error?.element).toMatch(/^<LinkSummary> <Link> #2000 \(id "0x[0-9a-f]{16}:\d+"\) <Port> #2$/);
    expect(error?.reason).toBe('expected <PortNum> 1..254, got "300"');
  });
});

describe('the XML reader', () => {
  const doc = (links: string) =>
    `<?xml version="1.0"?>\n<Report>\n<LinkSummary>\n${links}\n</LinkSummary>\n</Report>\n`;
  const port = (guid: string, port: number, type: string, desc: string) =>
    `<Port><NodeGUID>${guid}</NodeGUID><PortNum>${port}</PortNum><NodeType>${type}</NodeType><NodeDesc>${desc}</NodeDesc></Port>`;
  const link = (desc: string) =>
    `<Link id='a'><Rate>100g</Rate>${port('0x1', 1, 'FI', desc)}${port('0x2', 1, 'SW', 'sw')}</Link>`;

  it('decodes the predefined entities and character references, leaves declared ones as written, keeps CDATA', () => {
    const names = (text: string) => parseTopology(text).nodes.map((n) => n.name);
    expect(names(doc(link('r&amp;d &lt;n1&gt; &#x41;&#66;')))).toContain('r&d <n1> AB');
    expect(names(doc(link('n1 &site;')))).toContain('n1 &site;');
    expect(names(doc(link('<![CDATA[n1 <hfi1_0>]]>')))).toContain('n1 <hfi1_0>');
    expect(names(doc(link('n1<!-- a comment --> hfi1_0')))).toContain('n1 hfi1_0');
  });

  it('takes names an object already has (constructor, __proto__, toString) as plain names', () => {
    const node = (attrs: string, type: string) =>
      `<Report><Nodes><FIs><Node ${attrs}><NodeDesc>x</NodeDesc>${type}</Node></FIs></Nodes></Report>`;
    expect(parseTopology(node('constructor="1" __proto__="2" toString="3"', '')).nodes[0]?.type).toBe('host');
    expect(() => parseTopology(node('', '<NodeType>constructor</NodeType>'))).toThrow(
      /expected <NodeType> FI, SW or RT, got "constructor"/,
    );
    expect(() =>
      parseTopology(
        '<Report><Nodes><constructor><Node><NodeDesc>x</NodeDesc></Node></constructor></Nodes></Report>',
      ),
    ).toThrow(/no <Node> or <Link> found/);
  });

  it.each([
    [doc(link('n1 & n2')), 4, /"&" must start a reference/],
    [
      doc(link('n1')).replace('</Rate>', '</Rates>'),
      4,
      /expected <\/Rate> \(opened at line 4\), found <\/Rates>/,
    ],
    [`${doc(link('n1'))}<Report/>`, 7, /a second root element/],
    [`${doc(link('n1'))}trailing`, 7, /text outside the root element: "trailing"/],
    [doc(link('n1')).replace("id='a'", "id='a' id='b'"), 4, /attribute id given twice in <Link>/],
    [doc(link('n1')).replace("id='a'", 'id=a'), 4, /expected a quoted value for attribute id/],
    [doc(link('n1')).replace('<Rate>', '<!ELEMENT Rate>'), 4, /unknown markup/],
    ['', 1, /no element found/],
    ['<Report>\n<!-- never closed\n\n', 2, /the file ends inside <Report> \(opened at line 1\)/],
    ['<!-- never closed\n', 1, /the file ends inside a comment \(opened at line 1\)/],
  ])('refuses XML that is not well formed, naming the line (%#)', (text, line, reason) => {
    const error = thrownBy(() => parseTopology(text, { format: 'opareport' }), ParseError);
    expect(error?.message).toMatch(reason);
    expect(error?.line).toBe(line);
  });
});
