import type { FabricGraph } from '../model/graph.ts';
import type { Fabric, FabricNode } from '../model/model.ts';
import { type ForwardingTables, NO_ROUTE } from './tables.ts';

/** Allocation-free routeBetween: appends the channels to `out`, returns a reason when there is no route. */
export function traceChannels(
  fabric: Fabric,
  g: FabricGraph,
  tables: ForwardingTables,
  src: number,
  dst: number,
  out: number[],
): string | undefined {
  const from = fabric.nodes[src] as FabricNode;
  const to = fabric.nodes[dst] as FabricNode;
  let c = -1;
  const base = g.portOffset[src] as number;
  for (let p = 1; p <= from.portCount && c < 0; p++) c = g.outChannel[base + p] as number;
  if (c < 0) return `"${from.name}" has no cabled port`;
  const lid = to.lid;
  for (let guard = 0; guard <= fabric.nodes.length; guard++) {
    out.push(c);
    const n = g.channelToNode[c] as number;
    if (n === dst) return undefined;
    const lft = tables.bySwitch[n];
    if (!lft)
      return `reached ${(fabric.nodes[n] as FabricNode).type} "${(fabric.nodes[n] as FabricNode).name}"`;
    const port = lft[lid] ?? NO_ROUTE;
    if (port === NO_ROUTE || port === 0)
      return `"${(fabric.nodes[n] as FabricNode).name}" has no route to LID ${lid}`;
    c = g.outChannel[(g.portOffset[n] as number) + port] as number;
    if (c < 0) return `"${(fabric.nodes[n] as FabricNode).name}" routes LID ${lid} to uncabled port ${port}`;
  }
  return 'routing loop';
}
