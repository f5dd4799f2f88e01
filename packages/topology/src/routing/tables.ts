import type { Fabric } from '../model/model.ts';

/** LFT entry meaning "no route" (IB drops packets for LIDs whose entry is 0xFF). */
export const NO_ROUTE = 0xff;

/** Where a switch's table came from: read from a subnet manager's dump, or computed by an engine. */
export type TableSource = 'dump' | 'computed';

/** Per switch, destination LID → output port (0 the switch itself, NO_ROUTE unreachable). */
export interface ForwardingTables {
  engine: string;
  bySwitch: (Uint8Array | undefined)[];
  /** Where each switch's table came from when dumps were applied; absent: all computed. */
  source?: (TableSource | undefined)[];
  /** With `source`: the engine that computed the tables no dump replaced. */
  computedBy?: string;
}

/** Where the table of the switch at `index` came from. */
export function tableSource(tables: ForwardingTables, index: number): TableSource {
  return tables.source?.[index] ?? 'computed';
}

export function emptyTables(fabric: Fabric, engine: string): ForwardingTables {
  const bySwitch: (Uint8Array | undefined)[] = new Array(fabric.nodes.length).fill(undefined);
  const width = fabric.maxLid + 1;
  let switches = 0;
  for (const node of fabric.nodes) if (node.type === 'switch') switches++;
  // One allocation for every table: thousands of small buffers cost more than their bytes.
  const buffer = new ArrayBuffer(width * switches);
  new Uint8Array(buffer).fill(NO_ROUTE);
  let offset = 0;
  for (const node of fabric.nodes) {
    if (node.type !== 'switch') continue;
    const lft = new Uint8Array(buffer, offset, width);
    offset += width;
    lft[node.lid] = 0;
    bySwitch[node.index] = lft;
  }
  return { engine, bySwitch };
}
