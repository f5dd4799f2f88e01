import type { Fabric, NodeType } from '../model.ts';
import { assembleFabric, normalizeGuid, type RawLink, type RawNode, rawNode } from './assemble.ts';
import { TopologyParseError } from './errors.ts';
import { truncate } from './ibnetdiscover.ts';
import { parseWidthSpeed } from './rates.ts';

const FORMAT = 'ibnetdiscover -p';
const END = String.raw`(CA|SW|RT)\s+(\d+)\s+(\d+)\s+(0x[0-9a-fA-F]+)`;
const LINKED = new RegExp(
  `^${END}\\s+(\\d+x)\\s*(\\S+)\\s+-\\s+${END}\\s+\\(\\s*'(.*)'\\s+-\\s+'(.*)'\\s*\\)\\s*$`,
);
const UNLINKED = new RegExp(`^${END}\\s+(\\d+x)\\s*(\\S+)\\s+'(.*)'\\s*$`);
const TYPES: Record<string, NodeType> = { CA: 'host', SW: 'switch', RT: 'router' };

/**
 * `ibnetdiscover -p` port reports: one line per port, cabled ports listed from both ends,
 * uncabled ones as `4x ???` (rdma-core infiniband-diags ibnetdiscover.c `dump_ports_report`):
 *
 * ```
 * CA   134  1 0x7cfe9003003b4bde 4x EDR - SW  1719 10 0x7cfe9003009ce5b0 ( 'o0001 HCA-1' - 'ib-i1l1s01' )
 * SW  2052 37 0x506b4b03005c2740 4x ???                                    'ib-i4l1s01'
 * ```
 *
 * Fields: type, LID, port, GUID (node GUID for switches, port GUID for CAs), width and speed.
 * Nodes are keyed by GUID and named by their description.
 */
export function parsePortsReport(text: string, name = 'ibnetdiscover-ports'): Fabric {
  const nodes = new Map<string, RawNode>();
  const links: RawLink[] = [];
  const lines = text.split(/\r?\n/);
  const node = (type: string, lid: string, port: string, guid: string, desc: string, at: number) => {
    const key = normalizeGuid(guid);
    let n = nodes.get(key);
    if (!n) {
      n = rawNode(key, desc || key, TYPES[type] as NodeType, { line: at });
      n.guid = key;
      if (desc) n.description = desc;
      nodes.set(key, n);
    }
    const l = Number(lid);
    if (n.type === 'switch') n.lid = l;
    else {
      n.portLids[Number(port)] = l;
      if (n.lid === undefined) n.lid = l;
    }
    return n;
  };
  for (let i = 0; i < lines.length; i++) {
    const at = i + 1;
    const line = (lines[i] as string).trim();
    if (line === '' || line.startsWith('#')) continue;
    const m = LINKED.exec(line);
    if (m) {
      const [, t1, lid1, p1, g1, w, s, t2, lid2, p2, g2, d1, d2] = m as unknown as string[];
      const ws = parseWidthSpeed(`${w}${s}`);
      if (!ws) throw new TopologyParseError(`unknown link width or speed "${w} ${s}"`, at, FORMAT);
      const a = node(t1 as string, lid1 as string, p1 as string, g1 as string, d1 as string, at);
      const b = node(t2 as string, lid2 as string, p2 as string, g2 as string, d2 as string, at);
      links.push({
        a: { key: a.key, port: Number(p1) },
        b: { key: b.key, port: Number(p2) },
        rateGbps: ws.rateGbps,
        widthSpeed: `${ws.width}x${ws.speed}`,
        where: { line: at },
      });
      continue;
    }
    const u = UNLINKED.exec(line);
    if (u) {
      const [, t, lid, p, g, , , d] = u as unknown as string[];
      node(t as string, lid as string, p as string, g as string, d as string, at).uncabled.add(Number(p));
      continue;
    }
    if (nodes.size === 0 && !/^(CA|SW|RT)\s/.test(line)) continue; // a stderr line before the report
    throw new TopologyParseError(
      `expected "TYPE LID PORT GUID WIDTH SPEED - TYPE LID PORT GUID ( 'desc' - 'desc' )", got "${truncate(line)}"`,
      at,
      FORMAT,
    );
  }
  if (nodes.size === 0) throw new TopologyParseError('no port lines found', undefined, FORMAT);
  return assembleFabric(name, 'infiniband', FORMAT, nodes, links);
}
