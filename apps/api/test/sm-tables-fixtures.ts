import type { Fabric, ForwardingTables } from '@fabscope/topology';

/**
 * Tables as OpenSM writes them to opensm-lfts.dump (opensm/osm_dump.c): one table per switch,
 * `0xLID PORT # …` lines, each table closed by `N lids dumped`. `skip` leaves switches out.
 */
export function lftsDump(fabric: Fabric, tables: ForwardingTables, skip: readonly string[] = []): string {
  const lines: string[] = [];
  for (const node of fabric.nodes) {
    const lft = tables.bySwitch[node.index];
    if (node.type !== 'switch' || !lft || skip.includes(node.name)) continue;
    lines.push(
      `Unicast lids [0-${fabric.maxLid}] of switch Lid ${node.lid} guid ${node.guid} ('${node.name}'):`,
    );
    for (let lid = 0; lid <= fabric.maxLid; lid++) {
      const port = lft[lid] as number;
      if (port === 0xff) continue;
      const target = fabric.nodes[fabric.nodeByLid[lid] ?? -1];
      lines.push(
        `0x${lid.toString(16).padStart(4, '0')} ${String(port).padStart(3, '0')} # ${target ? `portguid ${target.guid}: '${target.name}'` : 'unknown node and type'}`,
      );
    }
    lines.push(`${fabric.maxLid} lids dumped`);
  }
  return `${lines.join('\n')}\n`;
}

export interface TracedHop {
  node: string;
  inPort?: number;
  outPort?: number;
}

/**
 * `ibtracert <slid> <dlid>` (infiniband-diags) as hops, named by their NodeDescription:
 *
 * ```
 * From ca {0x0000000000100000} portnum 1 lid 1-1 "host1"
 * [1] -> switch port {0x0000000000200000}[1] lid 2-2 "edge1"
 * [4] -> ca port {0x0000000000100027}[1] lid 28-28 "host20"
 * To ca {0x0000000000100026} portnum 1 lid 28-28 "host20"
 * ```
 */
export function parseIbtracert(text: string): TracedHop[] {
  const hops: TracedHop[] = [];
  for (const line of text.split('\n')) {
    const from = /^From \S+ \{0x[0-9a-f]+\} portnum (\d+) lid \S+ "(.*)"\s*$/i.exec(line);
    if (from) {
      hops.push({ node: from[2] as string });
      continue;
    }
    const step = /^\[(\d+)\] -> \S+ port \{0x[0-9a-f]+\}\[(\d+)\] lid \S+ "(.*)"\s*$/i.exec(line);
    if (step) {
      const last = hops[hops.length - 1];
      if (!last) throw new Error(`ibtracert: a hop before "From": ${line}`);
      last.outPort = Number(step[1]);
      hops.push({ node: step[3] as string, inPort: Number(step[2]) });
    }
  }
  if (hops.length < 2 || !/^To /m.test(text)) throw new Error(`ibtracert gave no route:\n${text}`);
  return hops;
}
