import type { Fabric, FabricNode } from '@fabscope/topology';

/** `POST /v1/flows` body: senders in the first column, receivers in the second. */
export interface StartFlowsRequest {
  pattern: 'pairs';
  pairs: [string, string][];
}

export interface FlowInfo {
  id: string;
  from: string;
  to: string;
  bytesPerSecond: number;
  /** Channel ids `node/port->node/port`, in path order. */
  path: string[];
}

/** A traffic request the emulator refuses; the message says why. */
export class TrafficError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TrafficError';
  }
}

/** Checks a request (as parsed JSON) and returns its host pairs; nothing starts unless all are valid. */
export function parsePairs(fabric: Fabric, request: unknown): [FabricNode, FabricNode][] {
  if (typeof request !== 'object' || request === null || Array.isArray(request)) {
    throw new TrafficError('request must be a JSON object {pattern: "pairs", pairs: [[from, to], …]}');
  }
  const { pattern, pairs } = request as Record<string, unknown>;
  if (pattern !== 'pairs')
    throw new TrafficError(`unknown pattern ${JSON.stringify(pattern)}; known: "pairs"`);
  if (!Array.isArray(pairs)) throw new TrafficError('pairs must be an array of [from, to] node names');
  if (pairs.length === 0) throw new TrafficError('pairs is empty: give at least one [from, to] pair');
  return pairs.map((pair: unknown, i): [FabricNode, FabricNode] => {
    if (
      !Array.isArray(pair) ||
      pair.length !== 2 ||
      typeof pair[0] !== 'string' ||
      typeof pair[1] !== 'string'
    ) {
      throw new TrafficError(
        `pairs[${i}] must be [from, to] with two node names, got ${JSON.stringify(pair)}`,
      );
    }
    const [from, to] = pair.map((name: string) => {
      const node = fabric.nodeByName.get(name);
      if (!node) throw new TrafficError(`pairs[${i}]: unknown node "${name}"`);
      if (node.type === 'switch') throw new TrafficError(`pairs[${i}]: "${name}" is a switch, not a host`);
      return node;
    }) as [FabricNode, FabricNode];
    if (from === to) throw new TrafficError(`pairs[${i}]: "${from.name}" cannot send to itself`);
    return [from, to];
  });
}
