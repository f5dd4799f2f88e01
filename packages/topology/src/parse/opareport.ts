import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { normalizeGuid } from '../guid.ts';
import type { Fabric, NodeType } from '../model.ts';
import { assembleFabric, type RawLink, type RawNode, rawNode } from './assemble.ts';
import { excerpt, parseError } from './errors.ts';

const FORMAT = 'opareport topology';
const TYPES: Record<string, NodeType> = { FI: 'host', SW: 'switch', RT: 'router' };
const ARRAYS = new Set(['Node', 'Link', 'Port', 'SM']);

type XmlObject = Record<string, unknown>;
/** An element as errors name it: its path in words and the line where it starts. */
interface Where {
  element: string;
  line: number | undefined;
}

/**
 * Omni-Path `opareport -o topology` XML (cornelisnetworks/opa-ff IbaTools/opareport):
 * `<Report><Nodes><FIs|Switches><Node><NodeGUID/><NodeType/><NodeDesc/></Node>…` and
 * `<LinkSummary><Link><Rate>100g</Rate><Port><NodeGUID/><PortNum/><NodeType/><NodeDesc/></Port>×2</Link>`.
 * and the GUID-less form `opaxlattopology` writes from a cabling spreadsheet (opa-ff
 * IbaTools/opaxlattopology/opaxlattopology.sh: `<Link><Rate/><MTU/><Internal/><Cable>…</Cable>
 * <Port><PortNum/><NodeType/><NodeDesc/></Port>×2</Link>`, `<FIs><Node><NodeDesc/><NodeDetails/>`).
 * Parsed with entity expansion off; a DOCTYPE declaring external or parameter entities is
 * refused. A file cut short names the element left open and the line where the file ends.
 */
export function parseOpareportTopology(text: string, name = 'opareport'): Fabric {
  rejectExternalEntities(text);
  const valid = XMLValidator.validate(text);
  if (valid !== true) {
    throw unclosedElement(text) ?? parseError(`malformed XML: ${valid.err.msg}`, valid.err.line, FORMAT);
  }
  const parser = new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: '@_',
    processEntities: false,
    htmlEntities: false,
    parseTagValue: false,
    trimValues: true,
    isArray: (tag) => ARRAYS.has(tag),
  });
  let doc: XmlObject;
  try {
    doc = parser.parse(text) as XmlObject;
  } catch (error) {
    throw parseError(`malformed XML: ${(error as Error).message}`, undefined, FORMAT, '<Report>');
  }
  const report = (doc.Report ?? doc) as XmlObject;
  const nodesXml = report.Nodes as XmlObject | undefined;
  const summary = report.LinkSummary as XmlObject | undefined;
  if (!nodesXml && !summary) {
    throw parseError(
      'expected <Nodes> or <LinkSummary> (opareport -o topology)',
      undefined,
      FORMAT,
      '<Report>',
    );
  }
  const nodes = new Map<string, RawNode>();
  const links: RawLink[] = [];
  const byGuid = new Map<string, RawNode>();
  const byDesc = new Map<string, RawNode>();
  // A node is keyed by its GUID when the file has one (opareport -o topology) and by its
  // NodeDesc when it does not (opaxlattopology writes NodeDesc only; opareport -T accepts that).
  const addNode = (x: XmlObject, where: Where, fallbackType?: string): RawNode => {
    const { element, line } = where;
    const guidText = str(x.NodeGUID);
    const desc = str(x.NodeDesc)?.trim();
    if (guidText === undefined && !desc) {
      throw parseError('expected <NodeGUID> or <NodeDesc> naming the node', line, FORMAT, element);
    }
    if (guidText !== undefined && !/^0x[0-9a-f]{1,16}$/i.test(guidText)) {
      throw parseError(`expected <NodeGUID> 0x…, got "${excerpt(guidText)}"`, line, FORMAT, element);
    }
    const guid = guidText === undefined ? undefined : normalizeGuid(guidText);
    const typeText = str(x.NodeType) ?? fallbackType ?? '';
    const type = TYPES[typeText];
    if (!type) {
      throw parseError(`expected <NodeType> FI, SW or RT, got "${excerpt(typeText)}"`, line, FORMAT, element);
    }
    let node = guid === undefined ? undefined : byGuid.get(guid);
    if (!node && desc) {
      // Two nodes may share a description; a GUID-less listing of one only joins a node without a GUID.
      const named = byDesc.get(desc);
      if (named && (guid === undefined || named.guid === undefined)) node = named;
    }
    if (node && node.type !== type) {
      throw parseError(
        `"${node.name}" is ${node.type === 'host' ? 'FI' : node.type === 'switch' ? 'SW' : 'RT'} at ${node.where.element}, not ${typeText}`,
        line,
        FORMAT,
        element,
      );
    }
    if (!node) {
      const key = guid ?? `desc:${desc}`;
      node = rawNode(key, desc || key, type, { element, line });
      if (guid) node.guid = guid;
      if (desc) node.description = desc;
      nodes.set(key, node);
    } else if (guid && !node.guid) {
      node.guid = guid;
    }
    if (guid) byGuid.set(guid, node);
    if (desc && !byDesc.has(desc)) byDesc.set(desc, node);
    return node;
  };
  for (const [group, type] of [
    ['FIs', 'FI'],
    ['Switches', 'SW'],
    ['Routers', 'RT'],
  ] as const) {
    const list = ((nodesXml?.[group] as XmlObject | undefined)?.Node ?? []) as XmlObject[];
    list.forEach((x, i) => {
      const line = lineOfElement(text, [
        [group, 1],
        ['Node', i + 1],
      ]);
      addNode(x, { element: `<${group}> <Node> #${i + 1}${idOf(x)}`, line }, type);
    });
  }
  const linkList = (summary?.Link ?? []) as XmlObject[];
  linkList.forEach((x, i) => {
    const element = `<LinkSummary> <Link> #${i + 1}${idOf(x)}`;
    const linkPath: [string, number][] = [
      ['LinkSummary', 1],
      ['Link', i + 1],
    ];
    const line = lineOfElement(text, linkPath);
    const ports = (x.Port ?? []) as XmlObject[];
    if (ports.length !== 2) {
      throw parseError(`expected 2 <Port> elements, found ${ports.length}`, line, FORMAT, element);
    }
    const ends = ports.map((p, j) => {
      const where = {
        element: `${element} <Port> #${j + 1}`,
        line: lineOfElement(text, [...linkPath, ['Port', j + 1]]),
      };
      const node = addNode(p, where);
      const portNum = Number(str(p.PortNum));
      if (!Number.isInteger(portNum) || portNum < 1 || portNum > 254) {
        throw parseError(
          `expected <PortNum> 1..254, got "${excerpt(str(p.PortNum) ?? '')}"`,
          where.line,
          FORMAT,
          where.element,
        );
      }
      const portGuid = str(p.PortGUID);
      if (portGuid && /^0x[0-9a-f]{1,16}$/i.test(portGuid)) node.portGuids[portNum] = normalizeGuid(portGuid);
      return { key: node.key, port: portNum };
    }) as [RawLink['a'], RawLink['b']];
    const rateText = str(x.Rate) ?? '100g';
    const rate = /^([\d.]+)\s*g$/i.exec(rateText);
    if (!rate || !(Number(rate[1]) > 0)) {
      throw parseError(`expected <Rate> like 100g or 25g, got "${excerpt(rateText)}"`, line, FORMAT, element);
    }
    links.push({ a: ends[0], b: ends[1], rateGbps: Number(rate[1]), where: { element, line } });
  });
  if (nodes.size === 0) throw parseError('no <Node> or <Link> found', undefined, FORMAT, '<Report>');
  return assembleFabric(name, 'omnipath', FORMAT, nodes, links);
}

function str(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'object') {
    const text = (value as XmlObject)['#text'];
    return text === undefined ? undefined : String(text);
  }
  return String(value);
}

function idOf(x: XmlObject): string {
  const id = x['@_id'];
  return typeof id === 'string' ? ` (id "${id}")` : '';
}

/** 1-based line of a character offset. */
function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i >= 0 && i < offset; i = text.indexOf('\n', i + 1)) line++;
  return line;
}

/** External (SYSTEM/PUBLIC) and parameter entities could read files or the network: refused. */
function rejectExternalEntities(text: string): void {
  const doctype = /<!DOCTYPE\b/i.exec(text);
  if (!doctype) return;
  const end = text.indexOf(']>', doctype.index);
  const body = text.slice(doctype.index, end < 0 ? undefined : end + 2);
  const external = /<!ENTITY\s+%|\b(SYSTEM|PUBLIC)\b/.exec(body);
  if (external) {
    throw parseError(
      'a DOCTYPE with external or parameter entities is not read (an opareport file has none)',
      lineAt(text, doctype.index + external.index),
      FORMAT,
      '<!DOCTYPE>',
    );
  }
}

/**
 * When the XML is cut short: the innermost element left open, named at the line where the text
 * ends. One forward scan (comments, CDATA, processing instructions and the DOCTYPE skipped), so
 * hostile input stays linear; undefined when every element is closed or tags do not nest.
 */
function unclosedElement(text: string): ReturnType<typeof parseError> | undefined {
  const open: { name: string; offset: number }[] = [];
  const nameAt = /[A-Za-z_][\w.:-]*/y;
  /** Just past the next `end` at or after `from` (always beyond `from`), or -1. */
  const skipTo = (from: number, end: string) => {
    const at = text.indexOf(end, from);
    return at < 0 ? -1 : at + end.length;
  };
  let i = text.indexOf('<');
  while (i >= 0) {
    let next: number;
    if (text.startsWith('<!--', i)) next = skipTo(i + 4, '-->');
    else if (text.startsWith('<![CDATA[', i)) next = skipTo(i + 9, ']]>');
    else if (text.startsWith('<?', i)) next = skipTo(i + 2, '?>');
    else if (text.startsWith('<!', i)) {
      const gt = text.indexOf('>', i);
      const bracket = text.indexOf('[', i);
      if (bracket >= 0 && (gt < 0 || bracket < gt)) {
        const subset = skipTo(bracket, ']');
        next = subset < 0 ? -1 : skipTo(subset, '>');
      } else {
        next = gt < 0 ? -1 : gt + 1;
      }
    } else {
      const closing = text[i + 1] === '/';
      nameAt.lastIndex = i + (closing ? 2 : 1);
      const name = nameAt.exec(text)?.[0];
      next = skipTo(i + 1, '>');
      if (name !== undefined && next >= 0) {
        if (closing) {
          if (open.at(-1)?.name !== name) return undefined; // mismatched, not cut short: the validator says
          open.pop();
        } else if (text[next - 2] !== '/') {
          open.push({ name, offset: i });
        }
      }
    }
    if (next <= i) break;
    i = text.indexOf('<', next);
  }
  const innermost = open.at(-1);
  if (!innermost) return undefined;
  return parseError(
    `the file ends inside <${innermost.name}> (opened at line ${lineAt(text, innermost.offset)}): expected </${innermost.name}>; the file is cut short`,
    lineAt(text, text.trimEnd().length),
    FORMAT,
    `<${innermost.name}>`,
  );
}

/**
 * The line where an element starts, found by its path of (tag, n-th occurrence) steps: the 3rd
 * `<Link` after the first `<LinkSummary`, then the 2nd `<Port` after that. undefined if not found.
 */
function lineOfElement(text: string, path: [string, number][]): number | undefined {
  let at = 0;
  for (const [tag, nth] of path) {
    for (let seen = 0; seen < nth; ) {
      const found = text.indexOf(`<${tag}`, at);
      if (found < 0) return undefined;
      at = found + tag.length + 1;
      if (/[\s>/]/.test(text[at] ?? '')) seen++;
    }
  }
  return lineAt(text, at);
}
