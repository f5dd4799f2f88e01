import type { Fabric, FabricNode } from '../model.ts';
import { TopologyParseError } from '../parse/errors.ts';
import { type ForwardingTables, NO_ROUTE } from './tables.ts';

const HEADER =
  /^Unicast lids \[(0x[0-9a-f]+)-(0x[0-9a-f]+)\] of switch (.*?) guid (0x[0-9a-f]+)(?: \((.*)\))?:\s*$/i;
const ENTRY = /^(0x[0-9a-f]+|\d+)\s+(\d+)(?:\s+:.*)?$/i;

/**
 * Replaces computed forwarding tables with the ones a subnet manager programmed, read from
 * `ibroute` dumps (rdma-core infiniband-diags/ibroute.c; several dumps may be concatenated):
 *
 * ```
 * Unicast lids [0x0-0x8] of switch Lid 6 guid 0x0008f10400410015 (SW-6IB4 Voltaire):
 *   Lid  Out   Destination
 *        Port     Info
 * 0x0001 001 : (Channel Adapter portguid 0x0008f10403960985: 'node01 HCA-1')
 * 0x0006 000 : (Switch portguid 0x0008f10400410015: 'SW-6IB4 Voltaire')
 * 2 valid lids dumped
 * ```
 *
 * Switches are matched by GUID, then by the `Lid N` in the header. Every dumped switch's table
 * is replaced whole (LIDs not listed become NO_ROUTE); switches without a dump keep theirs.
 */
export function applyIbroute(fabric: Fabric, tables: ForwardingTables, text: string): ForwardingTables {
  const bySwitch = [...tables.bySwitch];
  const byGuid = new Map<string, FabricNode>();
  for (const node of fabric.nodes) if (node.type === 'switch') byGuid.set(node.guid.toLowerCase(), node);
  let current: { node: FabricNode; lft: Uint8Array } | undefined;
  let dumped = 0;
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const line = (lines[i] as string).trim();
    const at = i + 1;
    if (line === '' || /^Lid\s+Out/i.test(line) || /^Port\s+Info/i.test(line) || /lids dumped/i.test(line))
      continue;
    const header = HEADER.exec(line);
    if (header) {
      const guid = normalizeGuid(header[4] as string);
      const lidMatch = /Lid (\d+)/i.exec(header[3] as string);
      let node = byGuid.get(guid);
      if (!node && lidMatch) {
        const index = fabric.nodeByLid[Number(lidMatch[1])] ?? -1;
        const candidate = index >= 0 ? fabric.nodes[index] : undefined;
        if (candidate?.type === 'switch') node = candidate;
      }
      if (!node) throw new TopologyParseError(`no switch with GUID ${guid} in the fabric`, at, 'ibroute');
      const lft = new Uint8Array(fabric.maxLid + 1).fill(NO_ROUTE);
      lft[node.lid] = 0;
      bySwitch[node.index] = lft;
      current = { node, lft };
      dumped++;
      continue;
    }
    const entry = ENTRY.exec(line);
    if (entry) {
      if (!current)
        throw new TopologyParseError(
          'forwarding entry before any "Unicast lids … of switch" header',
          at,
          'ibroute',
        );
      const lid = Number(entry[1]);
      const port = Number(entry[2]);
      if (port > current.node.portCount) {
        throw new TopologyParseError(
          `switch "${current.node.name}" has ${current.node.portCount} ports, not ${port}`,
          at,
          'ibroute',
        );
      }
      if (lid <= fabric.maxLid) current.lft[lid] = port;
      continue;
    }
    throw new TopologyParseError(
      `expected "0xLID PORT : …" or a "Unicast lids" header, got "${line}"`,
      at,
      'ibroute',
    );
  }
  if (dumped === 0) throw new TopologyParseError('no "Unicast lids … of switch" header found', 1, 'ibroute');
  return { engine: 'ibroute', bySwitch };
}

function normalizeGuid(text: string): string {
  return `0x${text.replace(/^0x/i, '').toLowerCase().padStart(16, '0')}`;
}
