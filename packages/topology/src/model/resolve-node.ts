import { findNode } from './find-node.ts';
import { hostIndex } from './host-index.ts';
import { type Fabric, type FabricNode, UnknownNodeError } from './model.ts';

/**
 * Every node a name means: the node of that name; else a host's adapters (one per rail) or one rail
 * (`host/device`); else, for `lid:N` where several subnets share the fabric, each subnet's node at that LID;
 * else the one node findNode finds by GUID, `lid:N` or description. Throws UnknownNodeError when none.
 */
export function nodesNamed(fabric: Fabric, query: string): readonly FabricNode[] {
  const byName = fabric.nodeByName.get(query);
  if (byName) return [byName];
  const rails = hostIndex(fabric).byAlias.get(query);
  if (rails) return rails;
  const lid = /^lid:?(\d+|0x[0-9a-f]+)$/i.exec(query);
  if (lid) {
    // A LID is unique within one subnet only: where several share the fabric, each one's node at it.
    const atLid = nodesAtLid(fabric, Number(lid[1]));
    if (atLid.length > 1) return atLid;
  }
  return [findNode(fabric, query)];
}

/** The nodes of a fabric of several subnets that answer to `lid` (base LID or a port's, with their LMC span). */
function nodesAtLid(fabric: Fabric, lid: number): FabricNode[] {
  const covers = (base: number, lmc: number) => base > 0 && lid >= base && lid < base + (1 << lmc);
  return fabric.nodes.filter(
    (n) =>
      n.subnet !== undefined &&
      (covers(n.lid, n.lmc ?? 0) || n.ports.some((p) => p !== undefined && covers(p.lid, n.lmc ?? 0))),
  );
}

/** Like nodesNamed, but undefined rather than an error: for lists (job hosts) that may name other fabrics' nodes. */
export function nodesNamedIfKnown(fabric: Fabric, query: string): readonly FabricNode[] {
  try {
    return nodesNamed(fabric, query);
  } catch (error) {
    if (error instanceof UnknownNodeError) return [];
    throw error;
  }
}

/**
 * Which rail of one host talks to which of another's: the same device where both have it (`mlx5_0` with
 * `mlx5_0`, as multi-rail MPI pairs them), the rest in order; a host with fewer rails reuses its own.
 */
export function railPairs(
  fabric: Fabric,
  from: readonly FabricNode[],
  to: readonly FabricNode[],
): [FabricNode, FabricNode][] {
  if (from.length === 0 || to.length === 0) return [];
  const { railOf } = hostIndex(fabric);
  const pairs: [FabricNode, FabricNode][] = [];
  const leftFrom = [...from];
  const leftTo = [...to];
  for (const a of from) {
    const device = railOf.get(a)?.device;
    const b = device === undefined ? undefined : leftTo.find((n) => railOf.get(n)?.device === device);
    if (!b) continue;
    pairs.push([a, b]);
    leftFrom.splice(leftFrom.indexOf(a), 1);
    leftTo.splice(leftTo.indexOf(b), 1);
  }
  const n = Math.max(leftFrom.length, leftTo.length);
  for (let i = 0; i < n; i++) {
    const a = leftFrom[i] ?? from[i % from.length];
    const b = leftTo[i] ?? to[i % to.length];
    if (a && b) pairs.push([a, b]);
  }
  return pairs;
}
