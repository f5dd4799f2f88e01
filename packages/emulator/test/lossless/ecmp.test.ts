import { buildScenario, fatTreeRouting } from '@fabscope/topology';
import { describe, expect, it } from 'vitest';
import { createEmulator } from '../../src/index.ts';
import { ecmpHash, flowTuple } from '../../src/routing/ecmp.ts';

const fabric = buildScenario('roce-leafspine');
const emulator = () => createEmulator({ fabric, tables: fatTreeRouting(fabric), seed: 1 });
/** 64 flows from leaf1's hosts to leaf2's, four per host pair. */
const PAIRS: [string, string][] = Array.from({ length: 64 }, (_, i) => [
  `host${(i % 16) + 1}`,
  `host${(i % 16) + 17}`,
]);

describe('ECMP on the RoCE leaf–spine', () => {
  it("spreads flows over every spine by the switch's hash of each flow's 5-tuple", () => {
    const flows = emulator().startFlows({ pattern: 'pairs', pairs: PAIRS });
    const spines = flows.map((f) => (f.path[1] as string).split('->')[1]?.split('/')[0]);
    const counts = new Map<string, number>();
    for (const s of spines) counts.set(s as string, (counts.get(s as string) ?? 0) + 1);
    expect([...counts.keys()].sort()).toEqual(['spine1', 'spine2', 'spine3', 'spine4']);
    // A hash, not round robin: uneven, yet no spine starved.
    for (const n of counts.values()) expect(n).toBeGreaterThan(4);
    // Each flow's uplink is the member leaf1's hash of its tuple picks out of leaf1's set (ports 17..20).
    flows.forEach((f, i) => {
      const tuple = flowTuple(f.from, f.to, i + 1);
      const member = ecmpHash(tuple, fabric.nodeByName.get('leaf1')?.guid as string) % 4;
      expect(f.path[1]).toMatch(new RegExp(`^leaf1/${17 + member}->spine${member + 1}/1$`));
    });
  });

  it('is deterministic: the same flows take the same paths in another emulator', () => {
    const a = emulator().startFlows({ pattern: 'pairs', pairs: PAIRS });
    const b = emulator().startFlows({ pattern: 'pairs', pairs: PAIRS });
    expect(b.map((f) => f.path)).toEqual(a.map((f) => f.path));
  });

  it('rehashes over the live members when an uplink goes down', () => {
    const e = emulator();
    e.setLinkState('leaf1/17--spine1/1', 'down');
    const flows = e.startFlows({ pattern: 'pairs', pairs: PAIRS });
    expect(flows.every((f) => f.path[1] !== 'leaf1/17->spine1/1')).toBe(true);
    expect(new Set(flows.map((f) => f.path[1])).size).toBe(3);
  });
});
