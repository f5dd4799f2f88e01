import type { Fabric, NodeType } from '../model/model.ts';
import { assembleFabric, type RawLink, type RawNode, rawNode } from './assemble.ts';
import { excerpt, guidField, parseError } from './errors.ts';
import { textLines } from './lines.ts';
import type { NodeNameMap } from './node-name-map.ts';
import { parseWidthSpeed } from './rates.ts';
import { STDERR_LINE } from './stderr.ts';

const FORMAT = 'ibnetdiscover -p';
const END = String.raw`(CA|SW|RT)\s+(\d+)\s+(\d+)\s+(0x[0-9a-fA-F]+)`;
const LINKED = new RegExp(
  `^${END}\\s+(\\d+x)\\s*(\\S+)\\s+-\\s+${END}\\s+\\(\\s*'(.*)'\\s+-\\s+'(.*)'\\s*\\)$`,
);
const UNLINKED = new RegExp(`^${END}\\s+(\\d+x)\\s*(\\S+)(?:\\s+(?:'(.*)'|(.*)))?$`);
const TYPES: Record<IbNodeType, NodeType> = { CA: 'host', SW: 'switch', RT: 'router' };

export type IbNodeType = 'CA' | 'SW' | 'RT';

/** One end of a port line: LID, port, GUID (node GUID for switches, port GUID for CAs), description. */
export interface IbPortEnd {
  type: IbNodeType;
  lid: number;
  port: number;
  guid: string;
  name: string;
}

/** One line of `ibnetdiscover -p`: a port, its link width and speed, and its cable's other end. */
export interface IbPortLine {
  local: IbPortEnd;
  width: string;
  speed: string;
  /** Bytes per second of the link (width × lane rate, as sysfs `rate`); null when unknown (`4x ???`). */
  rateBytesPerSecond: number | null;
  /** The other end, null for an uncabled port. */
  remote: IbPortEnd | null;
  /** 1-based line in the report. */
  line: number;
}

/**
 * An `ibnetdiscover -p` port report's lines (ibnetdiscover.c `dump_ports_report`), each cable's two listings checked
 * against each other; a port is keyed by node type, GUID and number, since a SHARP node shares its switch's GUID.
 * `dump_ports_report` prints every port of every node it found, so a cable listed from one end only is a report cut
 * short (or edited), refused at that line rather than read as a smaller fabric.
 */
export function parsePortsReportLines(text: string): IbPortLine[] {
  const out: IbPortLine[] = [];
  const lines = textLines(text, FORMAT);
  /** Each cabled port's far end, and the line that said so, by `TYPE GUID PORT`. */
  const cables = new Map<string, { far: string; line: number }>();
  const cable = (from: IbPortEnd, to: IbPortEnd, at: number) => {
    const key = endKey(from);
    const far = endKey(to);
    const known = cables.get(key);
    if (!known) cables.set(key, { far, line: at });
    else if (known.far !== far) {
      throw parseError(
        `port ${from.port} of ${from.type} ${from.guid} ("${excerpt(from.name)}") is cabled to two different ports: ${far} here, ${known.far} at line ${known.line}`,
        at,
        FORMAT,
      );
    }
  };
  for (let i = 0; i < lines.length; i++) {
    const at = i + 1;
    const line = (lines[i] as string).trim();
    if (line === '' || line.startsWith('#') || STDERR_LINE.test(line)) continue;
    const end = (f: string[], desc: string | undefined): IbPortEnd => {
      const port = Number(f[2]);
      if (port > 254) throw parseError(`port ${port} is not in 0..254`, at, FORMAT);
      return {
        type: f[0] as IbNodeType,
        lid: Number(f[1]),
        port,
        guid: guidField(f[3] as string, at, FORMAT),
        name: (desc ?? '').trim(),
      };
    };
    const m = LINKED.exec(line);
    if (m) {
      const f = m.slice(1) as string[];
      const ws = parseWidthSpeed(`${f[4]}${f[5]}`);
      if (!ws) throw parseError(`unknown link width or speed "${excerpt(`${f[4]} ${f[5]}`)}"`, at, FORMAT);
      const local = end(f.slice(0, 4), f[10]);
      const remote = end(f.slice(6, 10), f[11]);
      if (endKey(local) === endKey(remote)) {
        throw parseError(`port ${local.port} of ${local.type} ${local.guid} is cabled to itself`, at, FORMAT);
      }
      cable(local, remote, at);
      cable(remote, local, at);
      out.push({
        local,
        width: f[4] as string,
        speed: f[5] as string,
        rateBytesPerSecond: (ws.rateGbps * 1e9) / 8,
        remote,
        line: at,
      });
      continue;
    }
    const u = UNLINKED.exec(line);
    if (u && !/^-(\s|$)/.test(u[8] ?? '')) {
      const f = u.slice(1) as (string | undefined)[];
      const ws = parseWidthSpeed(`${f[4]}${f[5]}`);
      if (!ws && f[5] !== '???') {
        throw parseError(`unknown link width or speed "${excerpt(`${f[4]} ${f[5]}`)}"`, at, FORMAT);
      }
      out.push({
        local: end(f.slice(0, 4) as string[], f[6] ?? f[7]),
        width: f[4] as string,
        speed: f[5] as string,
        rateBytesPerSecond: ws ? (ws.rateGbps * 1e9) / 8 : null,
        remote: null,
        line: at,
      });
      continue;
    }
    throw parseError(
      `expected "TYPE LID PORT GUID WIDTH SPEED - TYPE LID PORT GUID ( 'desc' - 'desc' )" or an uncabled "TYPE LID PORT GUID WIDTH SPEED 'desc'", got "${excerpt(line)}"`,
      at,
      FORMAT,
    );
  }
  if (out.length === 0) throw parseError('no port lines found', lines.length, FORMAT);
  checkBothEnds(out);
  return out;
}

/** The first cable listed from one end only, as a ParseError at that listing's line. */
function checkBothEnds(out: readonly IbPortLine[]): void {
  const listed = new Map<string, IbPortLine>();
  for (const l of out) {
    const known = listed.get(endKey(l.local));
    if (!known || (!known.remote && l.remote)) listed.set(endKey(l.local), l);
  }
  for (const l of out) {
    if (!l.remote) continue;
    const partner = listed.get(endKey(l.remote));
    if (partner?.remote) continue;
    const far = `port ${l.remote.port} of ${l.remote.type} ${l.remote.guid} ("${excerpt(l.remote.name)}")`;
    const missing = partner
      ? `${far} is listed uncabled at line ${partner.line}`
      : `${far} has no line of its own`;
    throw parseError(
      `the cable from port ${l.local.port} of ${l.local.type} ${l.local.guid} ("${excerpt(l.local.name)}") is listed from this end only: ${missing}; ibnetdiscover -p lists every cable from both ends, so the report is incomplete (cut short?)`,
      l.line,
      FORMAT,
    );
  }
}

/** A port of a report: node type, GUID and port number (a CA and a switch may share a GUID). */
function endKey(e: IbPortEnd): string {
  return `${e.type} ${e.guid} port ${e.port}`;
}

/** How a parser names nodes: a site's node-name-map over the NodeDescription conventions (model/node-names.ts). */
export interface NamingOptions {
  nodeNames?: NodeNameMap | undefined;
}

/** An `ibnetdiscover -p` report as a Fabric: nodes keyed by type and GUID, named from their description. */
export function parsePortsReport(
  text: string,
  name = 'ibnetdiscover-ports',
  options: NamingOptions = {},
): Fabric {
  const nodes = new Map<string, RawNode>();
  const links: RawLink[] = [];
  const node = (e: IbPortEnd, at: number) => {
    const key = `${e.type} ${e.guid}`;
    let n = nodes.get(key);
    if (!n) {
      n = rawNode(key, e.name || e.guid, TYPES[e.type], { line: at });
      n.guid = e.guid;
      if (e.name) n.description = e.name;
      nodes.set(key, n);
    }
    if (n.type === 'switch') n.lid = e.lid;
    else {
      n.portLids[e.port] = e.lid;
      if (n.lid === undefined) n.lid = e.lid;
    }
    return n;
  };
  for (const l of parsePortsReportLines(text)) {
    const a = node(l.local, l.line);
    if (!l.remote) {
      a.uncabled.add(l.local.port);
      continue;
    }
    const b = node(l.remote, l.line);
    const ws = parseWidthSpeed(`${l.width}${l.speed}`);
    if (!ws) throw parseError(`unknown link width or speed "${l.width} ${l.speed}"`, l.line, FORMAT);
    links.push({
      a: { key: a.key, port: l.local.port },
      b: { key: b.key, port: l.remote.port },
      rateGbps: ws.rateGbps,
      widthSpeed: `${ws.width}x${ws.speed}`,
      where: { line: l.line },
    });
  }
  return assembleFabric(
    name,
    'infiniband',
    FORMAT,
    nodes,
    links,
    {},
    {
      map: options.nodeNames,
      byDescription: () => true,
    },
  );
}
