import { normalizeGuid } from '../guid.ts';
import type { Fabric, NodeType } from '../model.ts';
import { assembleFabric, type RawLink, type RawNode, rawNode } from './assemble.ts';
import { excerpt, guidField, parseError } from './errors.ts';
import { textLines } from './lines.ts';
import { parseWidthSpeed } from './rates.ts';
import { STDERR_LINE } from './stderr.ts';

const FORMAT = 'ibnetdiscover';
const HEADER = /^(Switch|Ca|Hca|Rt)\s+(\d+)\s+"([^"]+)"\s*(.*)$/;
const PORT = /^\[(\d+)\](?:\(([0-9a-fA-F]+)\))?\s+"([^"]+)"\[(\d+)\](?:\(([0-9a-fA-F]+)\))?\s*(.*)$/;
const GUID_LINE = /^(vendid|devid|sysimgguid|switchguid|caguid|rtguid)=(0x[0-9a-fA-F]+)/;
/** ibsim nets without `w=`/`s=` run at 4x SDR. */
const IBSIM_DEFAULT_RATE = 10;

const TYPES: Record<string, NodeType> = { Switch: 'switch', Ca: 'host', Hca: 'host', Rt: 'router' };
const IBSIM_SPEEDS: Record<string, string> = {
  '1': 'SDR',
  '2': 'DDR',
  '4': 'QDR',
  '8': 'FDR10',
  '16': 'FDR',
  '32': 'EDR',
};

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
 * `ibnetdiscover` topology dumps and ibsim net files (the same record format; rdma-core
 * infiniband-diags/man/common/sec_topology-file.rst, linux-rdma/ibsim net-examples):
 *
 * ```
 * switchguid=0x5442ba00003080(5442ba00003080)
 * Switch  24 "S-005442ba00003080"   # "ISR9024 Voltaire" base port 0 lid 6 lmc 0
 * [22]    "H-0008f10403961354"[1](8f10403961355)   # "MT23108 InfiniHost" lid 4 4xSDR
 *
 * Hca 2 "Hca1"
 * [1]  "Switch1"[1]  w=2 s=4 e=2
 * ```
 *
 * Nodes are named by their quoted id; node descriptions, GUIDs, LIDs and LMC are kept. The
 * tools' stderr lines (`ibwarn: …`, `src/query_smp.c:…; umad …`) and `#` comments are skipped
 * wherever they are; any other line that is not part of a record is a ParseError naming it.
 *
 * A dump cut short is a ParseError naming a line, never a smaller fabric. ibnetdiscover ends every
 * line with a newline, gives every node it names a record (ids, header, ports), lists each cable
 * from both ends and always describes the node it ran from (`dump_topology`), so each of these is
 * refused: text ending inside a line (no newline after a record's line), ids with no header after
 * them, a node named in a port line with no record of its own, a cable listed from one end only
 * between two records with ibnetdiscover's `# "description"` header comment, and no record of the
 * node `# Initiated from node …` names. What a partial discovery prints is still read: stderr lines
 * anywhere, nodes it never reached absent from every record, self-cabled switch ports. ibsim net
 * files may list a cable from one end only (ibsim cables both ends from either listing). One cut
 * cannot be seen: right after the header of the first record when that is the initiating node's
 * (a switch's), which reads as a discovery that found that node alone.
 */
export function parseIbnetdiscover(text: string, name = 'ibnetdiscover'): Fabric {
  const nodes = new Map<string, RawNode>();
  const links: RawLink[] = [];
  let current: RawNode | undefined;
  let pendingGuid: string | undefined;
  /** The first id line (vendid=, switchguid=, …) of a record whose header has not come yet. */
  let idsLine: number | undefined;
  /** Records whose header carries ibnetdiscover's `# "description"` comment: they list every port. */
  const discovered = new Set<string>();
  /** The nodes `# Initiated from node G port P` names (dump_topology prints it first). */
  const initiators: { guid: string; line: number }[] = [];
  const lines = textLines(text, FORMAT);
  const last = lines.length;
  for (let i = 0; i < lines.length; i++) {
    const at = i + 1;
    const line = (lines[i] as string).trim();
    if (line === '' || line.startsWith('#')) {
      if (line === '') current = undefined;
      const from = /^#\s*Initiated from node ([0-9a-f]{1,16}) port [0-9a-f]{1,16}\s*$/i.exec(line);
      if (from) initiators.push({ guid: normalizeGuid(from[1] as string), line: at });
      continue;
    }
    if (STDERR_LINE.test(line) || /^(Non-)?Chassis Nodes$/i.test(line) || /^Chassis \d+/i.test(line))
      continue;
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
      idsLine ??= at;
      if (guidLine[1] !== 'vendid' && guidLine[1] !== 'devid' && guidLine[1] !== 'sysimgguid') {
        pendingGuid = guidField(guidLine[2] as string, at, FORMAT);
      }
      continue;
    }
    const header = HEADER.exec(line);
    if (header) {
      const id = header[3] as string;
      const type = TYPES[header[1] as string] as NodeType;
      const portCount = Number(header[2]);
      if (portCount < 1 || portCount > 254) {
        throw parseError(`port count ${portCount} is not in 1..254`, at, FORMAT);
      }
      const existing = nodes.get(id);
      if (existing?.portCount !== undefined) {
        throw parseError(
          `node "${id}" has a second record (first at line ${existing.where.line})`,
          at,
          FORMAT,
        );
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
      node.guid = pendingGuid ?? guidFromId(id) ?? node.guid;
      pendingGuid = undefined;
      idsLine = undefined;
      if (desc) discovered.add(id);
      nodes.set(id, node);
      current = node;
      continue;
    }
    const port = PORT.exec(line);
    if (port) {
      if (!current) {
        throw parseError('port line outside a node record (expected a Switch/Ca header first)', at, FORMAT);
      }
      const local = Number(port[1]);
      const remoteId = port[3] as string;
      const remotePort = Number(port[4]);
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
      let rateGbps = IBSIM_DEFAULT_RATE;
      let widthSpeed: string | undefined;
      const ws = /\b(\d+x[A-Z0-9]+)\s*$/i.exec(comment);
      if (ws) {
        const parsed = parseWidthSpeed(ws[1] as string);
        if (!parsed)
          throw parseError(`unknown link width or speed "${excerpt(ws[1] as string)}"`, at, FORMAT);
        rateGbps = parsed.rateGbps;
        widthSpeed = `${parsed.width}x${parsed.speed}`;
      } else {
        // ibsim's port options are the enabled-bits masks it negotiates with (sim_net.c
        // parse_port_opt): w= LinkWidthEnabled, s= LinkSpeedEnabled, e= LinkSpeedExtEnabled; the link
        // runs at the widest width and the fastest speed enabled, an extended speed over the others.
        const w = /\bw=(\d+)/.exec(rest);
        const s = /\bs=(\d+)/.exec(rest);
        const e = /\be=(\d+)/.exec(rest);
        const width = w ? widestOf(Number(w[1])) : 4;
        const ext = e ? fastestOf(Number(e[1]), IBSIM_EXT_SPEEDS) : undefined;
        const speed =
          ext ?? (s ? (fastestOf(Number(s[1]), IBSIM_SPEEDS) ?? IBSIM_SPEEDS[s[1] as string]) : 'SDR');
        const parsed = speed === undefined ? undefined : parseWidthSpeed(`${width}x${speed}`);
        if (!parsed) throw parseError(`unknown ibsim link width/speed "${excerpt(rest.trim())}"`, at, FORMAT);
        rateGbps = parsed.rateGbps;
        if (w || s || e) widthSpeed = `${parsed.width}x${parsed.speed}`;
      }
      if (!nodes.has(remoteId)) {
        // Cabled to a node whose record comes later (or never: a partial dump).
        const type: NodeType = /^S-/.test(remoteId) ? 'switch' : /^R-/.test(remoteId) ? 'router' : 'host';
        const remote = rawNode(remoteId, remoteId, type, { line: at });
        const g = guidFromId(remoteId);
        if (g) remote.guid = g;
        nodes.set(remoteId, remote);
      }
      const link: RawLink = {
        a: { key: current.key, port: local },
        b: { key: remoteId, port: remotePort },
        rateGbps,
        where: { line: at },
      };
      if (widthSpeed) link.widthSpeed = widthSpeed;
      links.push(link);
      continue;
    }
    throw parseError(
      `expected a node header (Switch/Ca N "name"), a port line ([N] "name"[M]) or a blank line, got "${excerpt(line)}"`,
      at,
      FORMAT,
    );
  }
  if (idsLine !== undefined) {
    throw parseError(
      `the record whose ids start here has no Switch/Ca header: the dump is cut short`,
      idsLine,
      FORMAT,
    );
  }
  if (nodes.size === 0) throw parseError('no Switch or Ca record found', lines.length, FORMAT);
  const fabric = assembleFabric(name, 'infiniband', FORMAT, nodes, links, {
    described: (n) => n.portCount !== undefined,
    listsEveryPort: (n) => discovered.has(n.key),
  });
  // The node ibnetdiscover ran from is always in its dump (it discovers outward from it); CA
  // records come after every switch's, so a dump cut before it lost records nothing else names.
  for (const { guid, line } of initiators) {
    if (fabric.nodes.some((n) => n.guid === guid)) continue;
    throw parseError(
      `the dump was initiated from node ${guid} but has no record of it: the dump is cut short`,
      line,
      FORMAT,
    );
  }
  return fabric;
}

function guidFromId(id: string): string | undefined {
  const m = /^[SHR]-([0-9a-fA-F]{1,16})$/.exec(id);
  return m ? normalizeGuid(m[1] as string) : undefined;
}
