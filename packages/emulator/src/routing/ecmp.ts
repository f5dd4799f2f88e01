import { type FabricNode, NoRouteError } from '@fabscope/topology';
import type { PathFinder } from './paths.ts';

/** RoCEv2's UDP destination port; the source port varies per queue pair, which is what spreads flows. */
export const ROCEV2_UDP_PORT = 4791;
const UDP = 17;

/** A flow's 5-tuple as a switch hashes it (host names stand in for IP addresses). */
export function flowTuple(from: string, to: string, flowNumber: number): string {
  // RoCE NICs draw the UDP source port from the queue pair number; a multiplicative hash of the flow's number
  // stands in for it, inside the dynamic range 49152..65535 the drivers use.
  const sourcePort = 0xc000 | (Math.imul(flowNumber, 0x9e3779b1) >>> 18);
  return `${from}|${to}|${UDP}|${sourcePort}|${ROCEV2_UDP_PORT}`;
}

/** FNV-1a, 32 bits: a deterministic hash as a switch's ASIC applies one (seeded per switch, so hashes differ). */
export function ecmpHash(tuple: string, seed: string): number {
  let h = 0x811c9dc5;
  const text = `${seed}#${tuple}`;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/**
 * Hop-by-hop ECMP: at each switch, the live outputs on a shortest path to `dest` (the switch's set, in port
 * order) and the member the switch's hash of the tuple picks. Throws NoRouteError where a switch has none.
 */
export function ecmpPath(
  finder: PathFinder,
  nodes: readonly FabricNode[],
  from: FabricNode,
  dest: FabricNode,
  linkUp: Uint8Array,
  tuple: string,
): number[] {
  const first = finder.outputs(from.index)[0];
  if (first === undefined) throw new NoRouteError(`node "${from.name}" has no cabled port`);
  const out = [first];
  let at = finder.channelTo[first] as number;
  for (let guard = 0; at !== dest.index; guard++) {
    const here = nodes[at] as FabricNode;
    if (here.type !== 'switch' || guard > nodes.length) {
      throw new NoRouteError(`ECMP path to "${dest.name}" reached "${here.name}"`);
    }
    const set = finder.equalCostChannels(at, dest).filter((c) => linkUp[c >> 1] === 1);
    if (set.length === 0) throw new NoRouteError(`switch "${here.name}" has no live path to "${dest.name}"`);
    const chosen = set[ecmpHash(tuple, here.guid) % set.length] as number;
    out.push(chosen);
    at = finder.channelTo[chosen] as number;
  }
  return out;
}
