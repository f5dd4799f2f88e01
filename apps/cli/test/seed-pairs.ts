import { expect } from 'vitest';

/** Seed 002's two pairs (nodeA→nodeC, nodeB→nodeD), started through a running demo's API. */
export async function startSeedPairs(apiUrl: string): Promise<void> {
  const started = await fetch(`${apiUrl}/api/v1/traffic`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      pattern: 'pairs',
      pairs: [
        ['nodeA', 'nodeC'],
        ['nodeB', 'nodeD'],
      ],
    }),
  });
  expect(started.status).toBe(200);
}
