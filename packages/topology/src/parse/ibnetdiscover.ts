import { normalizeGuid } from '../model/guid.ts';
import type { Fabric, NodeType } from '../model/model.ts';
import { assembleFabric, type RawLink, type RawNode, rawNode } from './assemble.ts';
import { excerpt, guidField, parseError } from './errors.ts';
import { textLines } from './lines.ts';
import type { NamingOptions } from './ports-report.ts';
import { parseWidthSpeed } from './rates.ts';
import { STDERR_LINE } from './stderr.ts';

const FORMAT = 'ibnetdiscover';
const HEADER = /^(Switch|Ca|Hca|Rt)\s+(\d+)\s+"([^"]+)"\s*(.*)$/;
const PORT = /^\[(\d+)\](?:\(([0-9a-fA-F]+)\))?\s+"([^"]+)"\[(\d+)\](?:\(([0-9a-fA-F]+)\))?\s*(.*)$/;
const GUID_LINE = /^(vendid|devid|sysimgguid|switchguid|caguid|rtguid)=(0x[0-9a-fA-F]+)/;

const TYPES: Record<string, NodeType> = { Switch: 'switch', Ca: 'host', Hca: 'host', Rt: 'router' };
/** ibsim's LinkSpeedEnabled bits (s=): 1 SDR, 2 DDR, 4 QDR, 8 FDR10, 16 FDR, 32 EDR. */
const IBSIM_SPEEDS: Record<string, string> = Object.fromEntries(
  ['SDR', 'DDR', 'QDR', 'FDR10', 'FDR', 'EDR'].map((speed, bit) => [String(1 << bit), speed]),
);

/** ibsim's LinkSpeedExtEnabled bits (e=). */
const IBSIM_EXT_SPEEDS: Record<string, string> = { '1': 'FDR', '2': 'EDR', '4': 'HDR', '8': 'NDR' };
/** LinkWidthEnabled bits (w=) → lanes, narrowest first: 1x, 2x, 4x, 8x, 12x. */
const IBSIM_WIDTHS: readonly (readonly [bit: number, lanes: number])[] = [
  [1, 1],
  [16, 2],
  [2, 4],
  [4, 8],
  [8, 12],
];

/** The widest width a LinkWidthEnabled mask enables (a mask of none: the number as lanes). */
function widestOf(mask: number): number {
  let lanes: number | undefined;
  for (const [bit, n] of IBSIM_WIDTHS) if (mask & bit) lanes = n;
  return lanes ?? mask;
}

/** The fastest speed a mask of single bits enables, by the bits' names in `names`. */
function fastestOf(mask: number, names: Record<string, string>): string | undefined {
  let speed: string | undefined;
  for (let bit = 1; bit <= mask; bit <<= 1) if (mask & bit && names[String(bit)]) speed = names[String(bit)];
  return speed;
}

/**
 * `ibnetdiscover` dumps and ibsim net files (rdma-core infiniband-diags/man/common/sec_topology-file.rst).
 * A dump cut short is a ParseError, never a smaller fabric; ibsim net files may list a cable from one end.
 */
export function parseIbnetdiscover(
  text: string,
  name = 'ibnetdiscover',
  options: NamingOptions = {},
): Fabric {
  const dump = new Dump();
  const lines = textLines(text, FORMAT);
  for (let i = 0; i < lines.length; i++) dump.readLine((lines[i] as string).trim(), i + 1, lines.length);
  return dump.finish(name, lines.length, options);
}

/** What parseIbnetdiscover has read so far. */
class Dump {
  readonly nodes = new Map<string, RawNode>();
  readonly links: RawLink[] = [];
  /** The record whose port lines come now. */
  current: RawNode | undefined;
  pendingGuid: string | undefined;
  /** The first id line (vendid=, switchguid=, …) of a record whose header has not come yet. */
  idsLine: number | undefined;
  /** Records whose header carries ibnetdiscover's `# "description"` comment: they list every port. */
  readonly discovered = new Set<string>();
  /** The nodes `# Initiated from node G port P` names (dump_topology prints it first). */
  readonly initiators: { guid: string; line: number }[] = [];

  readLine(line: string, at: number, last: number): void {
    if (line === '' || line.startsWith('#')) {
      if (line === '') this.current = undefined;
      const from = /^#\s*Initiated from node ([0-9a-f]{1,16}) port [0-9a-f]{1,16}\s*$/i.exec(line);
      if (from) this.initiators.push({ guid: normalizeGuid(from[1] as string), line: at });
      return;
    }
    if (STDERR_LINE.test(line) || /^(Non-)?Chassis Nodes$/i.test(line) || /^Chassis \d+/i.test(line)) return;
    // A text ending in a newline splits into a last, empty line; a record's line last has none.
    if (at === last) {
      throw parseError(
        `the dump ends inside this line (no newline after "${excerpt(line)}"): it is cut short (ibnetdiscover ends every line)`,
        at,
        FORMAT,
      );
    }
    const guidLine = GUID_LINE.exec(line);
    if (guidLine) {
      this.idsLine ??= at;
      if (guidLine[1] !== 'vendid' && guidLine[1] !== 'devid' && guidLine[1] !== 'sysimgguid') {
        this.pendingGuid = guidField(guidLine[2] as string, at, FORMAT);
      }
      return;
    }
    const header = HEADER.exec(line);
    if (header) {
      this.readHeader(header, at);
      return;
    }
    const port = PORT.exec(line);
    if (port) {
      this.readPort(port, at);
      return;
    }
    throw parseError(
      `expected a node header (Switch/Ca N "name"), a port line ([N] "name"[M]) or a blank line, got "${excerpt(line)}"`,
      at,
      FORMAT,
    );
  }

  /** A record's header line: `Switch 24 "S-…" # "description" … lid 6 lmc 0`. */
  private readHeader(header: RegExpExecArray, at: number): void {
    const id = header[3] as string;
    const type = TYPES[header[1] as string] as NodeType;
    const portCount = Number(header[2]);
    if (portCount < 1 || portCount > 254) {
      throw parseError(`port count ${portCount} is not in 1..254`, at, FORMAT);
    }
    const existing = this.nodes.get(id);
    if (existing?.portCount !== undefined) {
      throw parseError(`node "${id}" has a second record (first at line ${existing.where.line})`, at, FORMAT);
    }
    const node = existing ?? rawNode(id, id, type, { line: at });
    node.type = type;
    node.portCount = portCount;
    node.where = { line: at };
    const comment = header[4] ?? '';
    const desc = /#\s*"([^"]*)"/.exec(comment);
    if (desc) node.description = desc[1] as string;
    const lid = /\blid (\d+)/.exec(comment);
    if (lid) node.lid = Number(lid[1]);
    const lmc = /\blmc (\d+)/.exec(comment);
    if (lmc && Number(lmc[1]) > 0) node.lmc = Number(lmc[1]);
    node.guid = this.pendingGuid ?? guidFromId(id) ?? node.guid;
    this.pendingGuid = undefined;
    this.idsLine = undefined;
    if (desc) this.discovered.add(id);
    this.nodes.set(id, node);
    this.current = node;
  }

  /** A port line of the current record: `[22] "H-…"[1](guid) # "description" lid 4 4xSDR`. */
  private readPort(port: RegExpExecArray, at: number): void {
    const { current } = this;
    if (!current) {
      throw parseError('port line outside a node record (expected a Switch/Ca header first)', at, FORMAT);
    }
    const local = Number(port[1]);
    const remoteId = port[3] as string;
    const rest = port[6] ?? '';
    if (current.portCount !== undefined && local > current.portCount) {
      throw parseError(`"${current.name}" has ${current.portCount} ports, not ${local}`, at, FORMAT);
    }
    if (port[2]) current.portGuids[local] = guidField(port[2], at, FORMAT);
    const commentAt = rest.indexOf('#');
    const comment = commentAt >= 0 ? rest.slice(commentAt + 1) : '';
    // A CA's own LID comes first in the comment: `# lid 16 lmc 1 "SW-6IB4 Voltaire" lid 3 4xSDR`.
    if (current.type !== 'switch') {
      const own = /^\s*lid (\d+)(?:\s+lmc (\d+))?/.exec(comment);
      if (own) {
        current.portLids[local] = Number(own[1]);
        if (current.lid === undefined || local === 1) current.lid = Number(own[1]);
        if (own[2] && Number(own[2]) > 0) current.lmc = Number(own[2]);
      }
    }
    if (!this.nodes.has(remoteId)) {
      // Cabled to a node whose record comes later (or never: a partial dump).
      const type: NodeType = /^S-/.test(remoteId) ? 'switch' : /^R-/.test(remoteId) ? 'router' : 'host';
      const remote = rawNode(remoteId, remoteId, type, { line: at });
      const g = guidFromId(remoteId);
      if (g) remote.guid = g;
      this.nodes.set(remoteId, remote);
    }
    const { rateGbps, widthSpeed } = linkRate(rest, comment, at);
    const link: RawLink = {
      a: { key: current.key, port: local },
      b: { key: remoteId, port: Number(port[4]) },
      rateGbps,
      where: { line: at },
    };
    if (widthSpeed) link.widthSpeed = widthSpeed;
    this.links.push(link);
  }

  /** The fabric of a dump read to its end, refused when it was cut short. */
  finish(name: string, lineCount: number, options: NamingOptions): Fabric {
    if (this.idsLine !== undefined) {
      throw parseError(
        `the record whose ids start here has no Switch/Ca header: the dump is cut short`,
        this.idsLine,
        FORMAT,
      );
    }
    if (this.nodes.size === 0) throw parseError('no Switch or Ca record found', lineCount, FORMAT);
    const fabric = assembleFabric(
      name,
      'infiniband',
      FORMAT,
      this.nodes,
      this.links,
      {
        described: (n) => n.portCount !== undefined,
        listsEveryPort: (n) => this.discovered.has(n.key),
      },
      {
        map: options.nodeNames,
        // A dump's nodes keep its ids (`H-0002c903…`, as every tool prints them) unless the map names
        // them; host names still find them (model/resolve-node.ts reads their descriptions).
        byDescription: () => false,
      },
    );
    // The node ibnetdiscover ran from is always in its dump, after every switch: missing, the dump was cut.
    for (const { guid, line } of this.initiators) {
      if (fabric.nodes.some((n) => n.guid === guid)) continue;
      throw parseError(
        `the dump was initiated from node ${guid} but has no record of it: the dump is cut short`,
        line,
        FORMAT,
      );
    }
    return fabric;
  }
}

/** A port line's rate: ibnetdiscover's `4xSDR` in its comment, else ibsim's `w= s= e=` options. */
function linkRate(rest: string, comment: string, at: number): { rateGbps: number; widthSpeed?: string } {
  const ws = /\b(\d+x[A-Z0-9]+)\s*$/i.exec(comment);
  if (ws) {
    const parsed = parseWidthSpeed(ws[1] as string);
    if (!parsed) throw parseError(`unknown link width or speed "${excerpt(ws[1] as string)}"`, at, FORMAT);
    return { rateGbps: parsed.rateGbps, widthSpeed: `${parsed.width}x${parsed.speed}` };
  }
  // ibsim's enabled-bits masks (sim_net.c parse_port_opt): the widest width and fastest speed enabled win.
  const w = /\bw=(\d+)/.exec(rest);
  const s = /\bs=(\d+)/.exec(rest);
  const e = /\be=(\d+)/.exec(rest);
  const width = w ? widestOf(Number(w[1])) : 4;
  const ext = e ? fastestOf(Number(e[1]), IBSIM_EXT_SPEEDS) : undefined;
  const speed = ext ?? (s ? (fastestOf(Number(s[1]), IBSIM_SPEEDS) ?? IBSIM_SPEEDS[s[1] as string]) : 'SDR');
  const parsed = speed === undefined ? undefined : parseWidthSpeed(`${width}x${speed}`);
  if (!parsed) throw parseError(`unknown ibsim link width/speed "${excerpt(rest.trim())}"`, at, FORMAT);
  if (w || s || e) return { rateGbps: parsed.rateGbps, widthSpeed: `${parsed.width}x${parsed.speed}` };
  return { rateGbps: parsed.rateGbps };
}

function guidFromId(id: string): string | undefined {
  const m = /^[SHR]-([0-9a-fA-F]{1,16})$/.exec(id);
  return m ? normalizeGuid(m[1] as string) : undefined;
}
