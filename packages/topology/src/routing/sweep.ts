import type { Fabric } from '../model/model.ts';
import { buildForwardingTables, isRoutingEngine } from './engines.ts';
import { LOWEST_PORT_MIN_HOP, lowestPortMinHopRouting } from './lowest-port.ts';
import type { ForwardingTables } from './tables.ts';

/** The fabric without its down links; tables map LIDs to ports, so they apply to the full fabric. */
export function survivingFabric(fabric: Fabric, linkUp: Uint8Array): Fabric {
  const renumber = new Int32Array(fabric.links.length).fill(-1);
  const links = fabric.links
    .filter((l) => linkUp[l.index] === 1)
    .map((l, i) => {
      renumber[l.index] = i;
      return { ...l, index: i };
    });
  const nodes = fabric.nodes.map((node) => ({
    ...node,
    ports: node.ports.map((p) => (p && p.link >= 0 ? { ...p, link: renumber[p.link] as number } : p)),
  }));
  return { ...fabric, nodes, links, nodeByName: new Map(nodes.map((n) => [n.name, n])) };
}

/** The tables a sweep computes: `routing` on the surviving fabric, else lowest-port min-hop. */
export function sweepTables(
  fabric: Fabric,
  linkUp: Uint8Array,
  routing: (fabric: Fabric) => ForwardingTables,
): ForwardingTables {
  const alive = survivingFabric(fabric, linkUp);
  try {
    return routing(alive);
  } catch {
    return lowestPortMinHopRouting(alive);
  }
}

/** The tables rebuilt from a sweep's engine and down links, so a second process routes the same. */
export function tablesAfterSweep(
  fabric: Fabric,
  engine: string,
  downLinks: readonly string[],
): ForwardingTables {
  const linkUp = new Uint8Array(fabric.links.length).fill(1);
  const byId = new Map(fabric.links.map((l) => [l.id, l.index]));
  for (const id of downLinks) {
    const index = byId.get(id);
    if (index === undefined) throw new RangeError(`unknown link "${id}"`);
    linkUp[index] = 0;
  }
  if (engine === LOWEST_PORT_MIN_HOP) return lowestPortMinHopRouting(survivingFabric(fabric, linkUp));
  if (!isRoutingEngine(engine)) throw new RangeError(`unknown routing engine "${engine}"`);
  return sweepTables(fabric, linkUp, (alive) => buildForwardingTables(alive, engine));
}
