import type { LinkDirectionState } from '@fabscope/contracts';
import { type Fabric, FabricBuilder, generatedGuid } from '@fabscope/topology';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ecmpSet, equalCostPaths } from '../src/ecmp-set.ts';

/** `leaves` leaves of 2 hosts, `spines` spines; leaf port 1–2 hosts, 2+s spine s; spine port l leaf l. */
function leafSpine(leaves: number, spines: number): Fabric {
  const b = new FabricBuilder('ecmp', 'ethernet');
  for (let h = 1; h <= leaves * 2; h++)
    b.addNode({ name: `host${h}`, type: 'host', guid: generatedGuid(0, h), portCount: 1 });
  for (let l = 1; l <= leaves; l++)
    b.addNode({
      name: `leaf${l}`,
      type: 'switch',
      guid: generatedGuid(1, l),
      portCount: 2 + spines,
      tier: 1,
    });
  for (let s = 1; s <= spines; s++)
    b.addNode({ name: `spine${s}`, type: 'switch', guid: generatedGuid(2, s), portCount: leaves, tier: 2 });
  for (let l = 1; l <= leaves; l++) {
    for (let h = 1; h <= 2; h++) b.connect(`host${(l - 1) * 2 + h}`, 1, `leaf${l}`, h, 100);
    for (let s = 1; s <= spines; s++) b.connect(`leaf${l}`, 2 + s, `spine${s}`, l, 100);
  }
  return b.build();
}

const state = (utilization: number | null, wait: number | null) =>
  ({ utilization, transmitWaitFraction: wait }) as LinkDirectionState;

describe('the ECMP set of an Ethernet route', () => {
  it('lists one member per spine across leaves, one path under a leaf, none through a host', () => {
    const fabric = leafSpine(3, 4);
    const across = equalCostPaths(fabric, 'host1', 'host5');
    expect(across.count).toBe(4);
    expect(across.paths).toEqual(
      [1, 2, 3, 4].map((s) => [
        'host1/1->leaf1/1',
        `leaf1/${2 + s}->spine${s}/1`,
        `spine${s}/3->leaf3/${2 + s}`,
        'leaf3/1->host5/1',
      ]),
    );
    expect(equalCostPaths(fabric, 'host1', 'host2')).toEqual({
      paths: [['host1/1->leaf1/1', 'leaf1/2->host2/1']],
      count: 1,
    });
    expect(equalCostPaths(fabric, 'host1', 'nowhere').count).toBe(0);
  });

  it('counts every path but lists at most the bound, each a fewest-hop path', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 2, max: 4 }),
        fc.integer({ min: 1, max: 9 }),
        fc.integer({ min: 1, max: 8 }),
        (leaves, spines, limit) => {
          const fabric = leafSpine(leaves, spines);
          const found = equalCostPaths(fabric, 'host1', `host${leaves * 2}`, limit);
          expect(found.count).toBe(spines);
          expect(found.paths).toHaveLength(Math.min(limit, spines));
          for (const p of found.paths) expect(p).toHaveLength(4);
          expect(new Set(found.paths.map((p) => p.join(' '))).size).toBe(found.paths.length);
        },
      ),
    );
  });

  it("gives each member its busiest link's load, unknown when one of its links is, and marks the taken one", () => {
    const found = equalCostPaths(leafSpine(2, 2), 'host1', 'host3');
    const [viaSpine1, viaSpine2] = found.paths as [string[], string[]];
    const states = new Map<string, LinkDirectionState>([
      ...viaSpine1.map((id, k): [string, LinkDirectionState] => [
        id,
        state(0.2 * (k + 1), k === 1 ? 0.5 : 0),
      ]),
      ...viaSpine2.map((id, k): [string, LinkDirectionState] => [id, state(k === 2 ? null : 0.1, 0)]),
    ]);
    const set = ecmpSet(found, states, viaSpine2);
    expect(set.hash).toBe('switch');
    expect(set.paths).toBe(2);
    expect(set.members[0]).toMatchObject({ taken: false, transmitWaitFraction: 0.5 });
    // The first and last links are shared by both: not counted in either member's load.
    expect(set.members[0]?.utilization).toBeCloseTo(0.6);
    expect(set.members[1]).toMatchObject({ taken: true, utilization: null, transmitWaitFraction: 0 });
  });
});
