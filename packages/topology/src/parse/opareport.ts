import { XMLParser, XMLValidator } from 'fast-xml-parser';
import type { Fabric, NodeType } from '../model.ts';
import { assembleFabric, normalizeGuid, type RawLink, type RawNode, rawNode } from './assemble.ts';
import { TopologyParseError } from './errors.ts';

const FORMAT = 'opareport topology';
const TYPES: Record<string, NodeType> = { FI: 'host', SW: 'switch', RT: 'router' };
const ARRAYS = new Set(['Node', 'Link', 'Port', 'SM']);

type XmlObject = Record<string, unknown>;

/**
 * Omni-Path `opareport -o topology` XML (cornelisnetworks/opa-ff IbaTools/opareport):
 * `<Report><Nodes><FIs|Switches><Node><NodeGUID/><NodeType/><NodeDesc/></Node>…` and
 * `<LinkSummary><Link><Rate>100g</Rate><Port><NodeGUID/><PortNum/><NodeType/><NodeDesc/></Port>×2</Link>`.
 * Parsed with entity expansion off. Nodes are keyed by GUID and named by NodeDesc.
 */
export function parseOpareportTopology(text: string, name = 'opareport'): Fabric {
  const valid = XMLValidator.validate(text);
  if (valid !== true) {
    throw new TopologyParseError(`malformed XML: ${valid.err.msg}`, valid.err.line, FORMAT);
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
  const doc = parser.parse(text) as XmlObject;
  const report = (doc.Report ?? doc) as XmlObject;
  const nodesXml = report.Nodes as XmlObject | undefined;
  const summary = report.LinkSummary as XmlObject | undefined;
  if (!nodesXml && !summary) {
    throw new TopologyParseError(
      'expected <Nodes> or <LinkSummary> (opareport -o topology)',
      undefined,
      FORMAT,
      '<Report>',
    );
  }
  const nodes = new Map<string, RawNode>();
  const links: RawLink[] = [];
  const addNode = (x: XmlObject, element: string, fallbackType?: string): RawNode => {
    const guidText = str(x.NodeGUID);
    if (!guidText || !/^0x[0-9a-f]{1,16}$/i.test(guidText)) {
      throw new TopologyParseError(
        `expected <NodeGUID> 0x…, got "${guidText ?? ''}"`,
        undefined,
        FORMAT,
        element,
      );
    }
    const guid = normalizeGuid(guidText);
    const typeText = str(x.NodeType) ?? fallbackType ?? '';
    const type = TYPES[typeText];
    if (!type)
      throw new TopologyParseError(
        `expected <NodeType> FI, SW or RT, got "${typeText}"`,
        undefined,
        FORMAT,
        element,
      );
    let node = nodes.get(guid);
    if (!node) {
      const desc = str(x.NodeDesc);
      node = rawNode(guid, desc || guid, type, { element });
      node.guid = guid;
      if (desc) node.description = desc;
      nodes.set(guid, node);
    }
    return node;
  };
  for (const [group, type] of [
    ['FIs', 'FI'],
    ['Switches', 'SW'],
    ['Routers', 'RT'],
  ] as const) {
    const list = ((nodesXml?.[group] as XmlObject | undefined)?.Node ?? []) as XmlObject[];
    list.forEach((x, i) => {
      addNode(x, `<${group}> <Node> #${i + 1}${idOf(x)}`, type);
    });
  }
  const linkList = (summary?.Link ?? []) as XmlObject[];
  linkList.forEach((x, i) => {
    const element = `<LinkSummary> <Link> #${i + 1}${idOf(x)}`;
    const ports = (x.Port ?? []) as XmlObject[];
    if (ports.length !== 2) {
      throw new TopologyParseError(
        `expected 2 <Port> elements, found ${ports.length}`,
        undefined,
        FORMAT,
        element,
      );
    }
    const ends = ports.map((p, j) => {
      const where = `${element} <Port> #${j + 1}`;
      const node = addNode(p, where);
      const portNum = Number(str(p.PortNum));
      if (!Number.isInteger(portNum) || portNum < 1 || portNum > 254) {
        throw new TopologyParseError(
          `expected <PortNum> 1..254, got "${str(p.PortNum) ?? ''}"`,
          undefined,
          FORMAT,
          where,
        );
      }
      const portGuid = str(p.PortGUID);
      if (portGuid && /^0x[0-9a-f]{1,16}$/i.test(portGuid)) node.portGuids[portNum] = normalizeGuid(portGuid);
      return { key: node.key, port: portNum };
    }) as [RawLink['a'], RawLink['b']];
    const rateText = str(x.Rate) ?? '100g';
    const rate = /^([\d.]+)\s*g$/i.exec(rateText);
    if (!rate || !(Number(rate[1]) > 0)) {
      throw new TopologyParseError(
        `expected <Rate> like 100g or 25g, got "${rateText}"`,
        undefined,
        FORMAT,
        element,
      );
    }
    links.push({ a: ends[0], b: ends[1], rateGbps: Number(rate[1]), where: { element } });
  });
  if (nodes.size === 0)
    throw new TopologyParseError('no <Node> or <Link> found', undefined, FORMAT, '<Report>');
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
