import { startTrafficPairs } from '@fabscope/test-support';

/** Seed 002's two pairs (nodeA→nodeC, nodeB→nodeD), started through a running demo's API. */
export function startSeedPairs(apiUrl: string): Promise<void> {
  return startTrafficPairs(apiUrl, [
    ['nodeA', 'nodeC'],
    ['nodeB', 'nodeD'],
  ]);
}
