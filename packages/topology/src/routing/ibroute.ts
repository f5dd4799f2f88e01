import type { Fabric, FabricNode } from '../model/model.ts';
import { excerpt, guidField, parseError } from '../parse/errors.ts';
import { textLines } from '../parse/lines.ts';
import { STDERR_LINE } from '../parse/stderr.ts';
import { type ForwardingTables, NO_ROUTE, type TableSource, tableSource } from './tables.ts';

const FORMAT = 'ibroute';
const NUMBER = '(0x[0-9a-f]+|\\d+)';
const HEADER = new RegExp(
  `^Unicast lids \\[${NUMBER}-${NUMBER}\\] of switch (.*?) guid (0x[0-9a-f]+)(?: \\((.*)\\))?:\\s*$`,
  'i',
);
const ENTRY = /^(0x[0-9a-f]+|\d+)\s+(\d+)(?:\s+[:#].*)?$/i;
const TRAILER = /^(\d+)\s+(valid\s+)?lids dumped\s*$/i;
const COLUMN_TITLES = /^(Lid\s+Out(\s+Destination)?|Port\s+Info)\s*$/i;

interface OpenTable {
  node: FabricNode;
  lft: Uint8Array;
  entries: number;
  line: number;
  /** The header's LID range. */
  lo: number;
  hi: number;
  /** The last LID listed (the tools list them in increasing order). */
  lastLid: number;
}

export interface IbrouteOptions {
  /** Every switch's table must come from a dump; the rest are a ParseError, not a silent mix. */
  strict?: boolean;
}

/**
 * Replaces computed tables with `ibroute` / `dump_lfts.sh` output (infiniband-diags/ibroute.c) or
 * OpenSM's `opensm-lfts.dump` (osm_dump.c); a table not ending in its `N lids dumped` line is an error.
 */
export function applyIbroute(
  fabric: Fabric,
  tables: ForwardingTables,
  text: string,
  options: IbrouteOptions = {},
): ForwardingTables {
  const bySwitch = [...tables.bySwitch];
  const source: (TableSource | undefined)[] = fabric.nodes.map((n) =>
    n.type === 'switch' ? tableSource(tables, n.index) : undefined,
  );
  const computedBy = tables.source ? tables.computedBy : tables.engine;
  const byGuid = new Map<string, FabricNode>();
  for (const node of fabric.nodes) if (node.type === 'switch') byGuid.set(node.guid, node);
  let open: OpenTable | undefined;
  let dumped = 0;
  const lines = textLines(text, FORMAT);
  const truncated = (at: number) =>
    parseError(
      `the table of switch "${open?.node.name}" (from line ${open?.line}) ends without its "N lids dumped" line: the dump is cut short`,
      at,
      FORMAT,
    );
  for (let i = 0; i < lines.length; i++) {
    const line = (lines[i] as string).trim();
    const at = i + 1;
    if (line === '' || line.startsWith('#') || COLUMN_TITLES.test(line) || STDERR_LINE.test(line)) continue;
    const header = HEADER.exec(line);
    if (header) {
      if (open) throw truncated(at);
      const guid = guidField(header[4] as string, at, FORMAT);
      const lidMatch = /\bLid (\d+)/i.exec(header[3] as string);
      let node = byGuid.get(guid);
      if (!node && lidMatch) {
        const index = fabric.nodeByLid[Number(lidMatch[1])] ?? -1;
        const candidate = index >= 0 ? fabric.nodes[index] : undefined;
        if (candidate?.type === 'switch') node = candidate;
      }
      if (!node) throw parseError(`no switch with GUID ${guid} in the fabric`, at, FORMAT);
      const lft = new Uint8Array(fabric.maxLid + 1).fill(NO_ROUTE);
      lft[node.lid] = 0;
      bySwitch[node.index] = lft;
      source[node.index] = 'dump';
      const lo = Number(header[1]);
      const hi = Number(header[2]);
      if (hi < lo) throw parseError(`the LID range [${header[1]}-${header[2]}] is empty`, at, FORMAT);
      open = { node, lft, entries: 0, line: at, lo, hi, lastLid: -1 };
      dumped++;
      continue;
    }
    const entry = ENTRY.exec(line);
    if (entry) {
      if (!open) {
        throw parseError('forwarding entry outside a "Unicast lids … of switch" table', at, FORMAT);
      }
      const lid = Number(entry[1]);
      const port = Number(entry[2]);
      if (lid < open.lo || lid > open.hi) {
        throw parseError(
          `LID ${entry[1]} is outside the table's range [${open.lo}-${open.hi}] (line ${open.line}): the dump is damaged`,
          at,
          FORMAT,
        );
      }
      if (lid <= open.lastLid) {
        throw parseError(
          `LID ${entry[1]} comes after LID ${open.lastLid}: a table lists LIDs in increasing order, the dump is damaged`,
          at,
          FORMAT,
        );
      }
      open.lastLid = lid;
      if (port > open.node.portCount && port !== NO_ROUTE) {
        throw parseError(
          `switch "${open.node.name}" has ${open.node.portCount} ports, not ${port}`,
          at,
          FORMAT,
        );
      }
      // ibroute -a lists unrouted LIDs too, at port 255: no route, as the table says.
      if (lid <= fabric.maxLid && port !== NO_ROUTE) open.lft[lid] = port;
      open.entries++;
      continue;
    }
    const trailer = TRAILER.exec(line);
    if (trailer) {
      if (!open) throw parseError(`"${excerpt(line)}" outside a table`, at, FORMAT);
      const count = Number(trailer[1]);
      if (trailer[2] && count !== open.entries) {
        throw parseError(
          `the table of switch "${open.node.name}" says ${trailer[1]} valid lids but lists ${open.entries}: the dump is damaged`,
          at,
          FORMAT,
        );
      }
      // ibroute -a counts the entries it printed; OpenSM prints the table's last LID.
      if (!trailer[2] && count !== open.entries && count !== open.hi) {
        throw parseError(
          `the table of switch "${open.node.name}" (LIDs ${open.lo}-${open.hi}) says ${trailer[1]} lids dumped but lists ${open.entries}: the dump is damaged`,
          at,
          FORMAT,
        );
      }
      open = undefined;
      continue;
    }
    if (/^Multicast mlids/i.test(line)) {
      throw parseError(
        'multicast forwarding tables (ibroute -M) are not read; dump unicast tables',
        at,
        FORMAT,
      );
    }
    throw parseError(
      `expected "0xLID PORT : …", "N lids dumped" or a "Unicast lids … of switch" header, got "${excerpt(line)}"`,
      at,
      FORMAT,
    );
  }
  if (open) throw truncated(lines.length);
  if (dumped === 0) throw parseError('no "Unicast lids … of switch" header found', 1, FORMAT);
  const result: ForwardingTables = { engine: 'ibroute', bySwitch, source };
  if (computedBy !== undefined) result.computedBy = computedBy;
  if (options.strict) {
    const missing = switchesWithoutDump(fabric, result);
    if (missing.length > 0) {
      const names = missing.slice(0, 5).map((n) => `"${n.name}"`);
      const more = missing.length > 5 ? ` and ${missing.length - 5} more` : '';
      throw parseError(
        `no dumped table for ${missing.length} of ${source.filter(Boolean).length} switches: ${names.join(', ')}${more} (strict: every switch's table must come from a dump)`,
        lines.length,
        FORMAT,
      );
    }
  }
  return result;
}

/** The switches whose tables no dump replaced (computed ones, mixed in after applyIbroute). */
export function switchesWithoutDump(fabric: Fabric, tables: ForwardingTables): FabricNode[] {
  return fabric.nodes.filter((n) => n.type === 'switch' && tableSource(tables, n.index) !== 'dump');
}
