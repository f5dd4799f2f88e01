import { normalizeGuid } from '../model/guid.ts';
import type { Fabric, NodeType } from '../model/model.ts';
import { assembleFabric, type RawLink, type RawNode, rawNode } from './assemble.ts';
import { excerpt, parseError } from './errors.ts';
import { childrenNamed, readXml, type XmlElement } from './xml.ts';
import { LineCounter } from './xml-text.ts';

const FORMAT = 'opareport topology';
const TYPES: Record<string, NodeType> = { FI: 'host', SW: 'switch', RT: 'router' };
/** The node type of each list in <Nodes>, as its <Node>s leave it out in opaxlattopology's files. */
const GROUP_TYPES: Record<string, string> = { FIs: 'FI', Switches: 'SW', Routers: 'RT' };
/** An element as errors name it: its path in words and the line where it starts. */
interface Where {
  element: string;
  line: number | undefined;
}

/**
 * `opareport -o topology` XML (cornelisnetworks/opa-ff IbaTools/opareport) and the GUID-less form
 * opaxlattopology writes; errors name the element and its line.
 */
export function parseOpareportTopology(text: string, name = 'opareport'): Fabric {
  rejectExternalEntities(text);
  const nodes = new Map<string, RawNode>();
  const links: RawLink[] = [];
  const byGuid = new Map<string, RawNode>();
  const byDesc = new Map<string, RawNode>();
  // Keyed by GUID when the file has one, else by NodeDesc (opaxlattopology writes NodeDesc only).
  const addNode = (x: XmlElement, where: Where, fallbackType?: string, read = fields(x, where)): RawNode => {
    const { element, line } = where;
    const guidText = read.NodeGUID;
    const desc = read.NodeDesc?.trim();
    if (guidText === undefined && !desc) {
      throw parseError('expected <NodeGUID> or <NodeDesc> naming the node', line, FORMAT, element);
    }
    if (guidText !== undefined && !/^0x[0-9a-f]{1,16}$/i.test(guidText)) {
      throw parseError(`expected <NodeGUID> 0x…, got "${excerpt(guidText)}"`, line, FORMAT, element);
    }
    const guid = guidText === undefined ? undefined : guidOf(guidText);
    const typeText = read.NodeType ?? fallbackType ?? '';
    const type = Object.hasOwn(TYPES, typeText) ? TYPES[typeText] : undefined;
    if (!type) {
      throw parseError(`expected <NodeType> FI, SW or RT, got "${excerpt(typeText)}"`, line, FORMAT, element);
    }
    let node = guid === undefined ? undefined : byGuid.get(guid);
    // The usual listing: a node already known by its GUID, of its type, under its description.
    if (node && node.type === type && desc === node.description) return node;
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
  /** How many of its records each <FIs>, <Switches>, <Routers> or <LinkSummary> has had so far. */
  const seen = new Map<XmlElement, number>();
  const nth = (list: XmlElement) => {
    const n = (seen.get(list) ?? 0) + 1;
    seen.set(list, n);
    return n;
  };
  const readLink = (x: XmlElement, n: number) => {
    const element = `<LinkSummary> <Link> #${n}${idOf(x)}`;
    const line = x.line;
    const ports = childrenNamed(x, 'Port');
    if (ports.length !== 2) {
      throw parseError(`expected 2 <Port> elements, found ${ports.length}`, line, FORMAT, element);
    }
    const ends = ports.map((p, j) => {
      const where = { element: `${element} <Port> #${j + 1}`, line: p.line };
      const read = fields(p, where);
      const node = addNode(p, where, undefined, read);
      const portText = read.PortNum;
      const portNum = Number(portText);
      if (!Number.isInteger(portNum) || portNum < 1 || portNum > 254) {
        throw parseError(
          `expected <PortNum> 1..254, got "${excerpt(portText ?? '')}"`,
          where.line,
          FORMAT,
          where.element,
        );
      }
      const portGuid = read.PortGUID;
      if (portGuid && /^0x[0-9a-f]{1,16}$/i.test(portGuid)) node.portGuids[portNum] = guidOf(portGuid);
      return { key: node.key, port: portNum };
    }) as [RawLink['a'], RawLink['b']];
    const rateText = fields(x, { element, line }).Rate ?? '100g';
    const rate = /^([\d.]+)\s*g$/i.exec(rateText);
    if (!rate || !(Number(rate[1]) > 0)) {
      throw parseError(`expected <Rate> like 100g or 25g, got "${excerpt(rateText)}"`, line, FORMAT, element);
    }
    links.push({ a: ends[0], b: ends[1], rateGbps: Number(rate[1]), where: { element, line } });
  };
  // Each <Node> and <Link> is read as it ends and not kept: a fabric's file is tens of megabytes.
  const root = readXml(text, FORMAT, (x, ancestors) => {
    const base = ancestors[0]?.name === 'Report' ? 1 : 0;
    const section = ancestors[base];
    if (x.name === 'Node' && ancestors.length === base + 2 && section?.name === 'Nodes') {
      const list = ancestors[base + 1] as XmlElement;
      if (!Object.hasOwn(GROUP_TYPES, list.name)) return false;
      const type = GROUP_TYPES[list.name];
      addNode(x, { element: `<${list.name}> <Node> #${nth(list)}${idOf(x)}`, line: x.line }, type);
      return true;
    }
    if (x.name === 'Link' && ancestors.length === base + 1 && section?.name === 'LinkSummary') {
      readLink(x, nth(section));
      return true;
    }
    return false;
  });
  const sections = root.name === 'Report' ? (root.children ?? []) : [root];
  if (!sections.some((x) => x.name === 'Nodes' || x.name === 'LinkSummary')) {
    throw parseError(
      'expected <Nodes> or <LinkSummary> (opareport -o topology)',
      root.line,
      FORMAT,
      `<${root.name}>`,
    );
  }
  if (nodes.size === 0) throw parseError('no <Node> or <Link> found', root.line, FORMAT, `<${root.name}>`);
  return assembleFabric(name, 'omnipath', FORMAT, nodes, links);
}

/** A GUID checked as 0x and 1..16 hex digits, in the one form (as opareport writes it, already). */
function guidOf(text: string): string {
  return /^0x[0-9a-f]{16}$/.test(text) ? text : normalizeGuid(text);
}

/** The child elements whose text the report's records are read from. */
const FIELD_NAMES = ['NodeGUID', 'NodeDesc', 'NodeType', 'PortNum', 'PortGUID', 'Rate'] as const;
type Field = (typeof FIELD_NAMES)[number];
const FIELDS: ReadonlySet<string> = new Set(FIELD_NAMES);

/** The text of each field child of `x`, in one pass; a field given twice is a ParseError. */
function fields(x: XmlElement, where: Where): Partial<Record<Field, string>> {
  const found: Partial<Record<Field, string>> = {};
  for (const child of x.children ?? []) {
    if (!FIELDS.has(child.name)) continue;
    const name = child.name as Field;
    if (found[name] !== undefined) {
      throw parseError(
        `expected one <${name}>, found another at line ${child.line}`,
        where.line,
        FORMAT,
        where.element,
      );
    }
    found[name] = child.text;
  }
  return found;
}

function idOf(x: XmlElement): string {
  const id = x.attributes?.get('id');
  if (id === undefined) return '';
  return ` (id "${id.length > 60 ? excerpt(id) : id}")`;
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
      new LineCounter(text).lineOf(doctype.index + external.index),
      FORMAT,
      '<!DOCTYPE>',
    );
  }
}
