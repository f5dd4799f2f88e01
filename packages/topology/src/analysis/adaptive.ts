import { type FabricGraph, hopsTo } from '../model/graph.ts';

/** What adaptive routing converges towards, as a planning estimate: each flow takes the least-shared path. */
export function adaptivePaths(
  g: FabricGraph,
  nodeCount: number,
  flows: readonly (readonly [number, number])[],
  staticPaths: readonly ArrayLike<number>[],
): Int32Array[] {
  const channelCount = g.channelToNode.length;
  const load = new Int32Array(channelCount);
  const distances = new Map<number, Int32Array>();
  // Per flow: the best bottleneck from each node to the destination, and the channel taking it.
  const cost = new Int32Array(nodeCount);
  const choice = new Int32Array(nodeCount);
  const seen = new Int32Array(nodeCount).fill(-1);
  const out: Int32Array[] = [];
  for (let f = 0; f < flows.length; f++) {
    const [, dst] = flows[f] as readonly [number, number];
    const fixed = staticPaths[f] as ArrayLike<number>;
    let dist = distances.get(dst);
    if (!dist) {
      dist = hopsTo(g, dst);
      distances.set(dst, dist);
    }
    const staticNext = new Map<number, number>();
    for (let i = 1; i < fixed.length; i++)
      staticNext.set(g.channelFromNode[fixed[i] as number] as number, fixed[i] as number);
    const d = dist;
    // Least bottleneck from `u` to dst over equal-cost channels (memoised per flow; depth = hops).
    const best = (u: number): number => {
      if (u === dst) return 0;
      if (seen[u] === f) return cost[u] as number;
      seen[u] = f;
      let bestCost = Number.MAX_SAFE_INTEGER;
      let bestChannel = -1;
      if (g.isSwitch[u]) {
        const want = (d[u] as number) - 1;
        const preferred = staticNext.get(u) ?? -1;
        for (let p = g.portOffset[u] as number; p < (g.portOffset[u + 1] as number); p++) {
          const c = g.outChannel[p] as number;
          if (c < 0) continue;
          const v = g.channelToNode[c] as number;
          if (d[v] !== want) continue;
          const through = Math.max(load[c] as number, best(v));
          if (through < bestCost || (through === bestCost && c === preferred)) {
            bestCost = through;
            bestChannel = c;
          }
        }
      }
      cost[u] = bestCost;
      choice[u] = bestChannel;
      return bestCost;
    };
    const first = fixed[0] as number;
    const path = [first];
    let here = g.channelToNode[first] as number;
    let complete = here === dst;
    if (!complete && best(here) < Number.MAX_SAFE_INTEGER) {
      while (here !== dst) {
        const c = choice[here] as number;
        path.push(c);
        here = g.channelToNode[c] as number;
      }
      complete = true;
    }
    // A destination the equal-cost walk cannot reach (a partial fabric) keeps its static path.
    const chosen = complete ? Int32Array.from(path) : Int32Array.from(fixed);
    for (const ch of chosen) load[ch] = (load[ch] as number) + 1;
    out.push(chosen);
  }
  return out;
}
