import type { Topology } from '@fabscope/contracts';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { shareTopologyStrings } from './topologyStrings.ts';

const name = fc.stringMatching(/^[a-z]{1,6}[0-9]{0,3}$/);
const topology: fc.Arbitrary<Topology> = fc
  .uniqueArray(name, { minLength: 1, maxLength: 12 })
  .chain((names) => {
    const end = fc.record({ node: fc.oneof(fc.constantFrom(...names), name), port: fc.nat(64) });
    return fc.record({
      name: name,
      fabricType: fc.constantFrom('omnipath', 'infiniband', 'ethernet'),
      nodes: fc.tuple(
        ...names.map((n) =>
          fc.record({
            name: fc.constant(n),
            type: fc.constantFrom('host', 'switch', 'router'),
            tier: fc.nat(3),
            guid: fc.stringMatching(/^0x[0-9a-f]{16}$/),
            lid: fc.nat(49151),
          }),
        ),
      ),
      links: fc.array(
        fc.record(
          {
            id: name,
            kind: fc.constantFrom('isl', 'host'),
            a: end,
            b: end,
            rateGbps: fc.constantFrom(100, 200, 400),
            fabricType: fc.constantFrom('omnipath', 'infiniband', 'ethernet'),
          },
          { requiredKeys: ['id', 'kind', 'a', 'b', 'rateGbps'] },
        ),
        { maxLength: 30 },
      ),
    }) as fc.Arbitrary<Topology>;
  });

describe('shareTopologyStrings', () => {
  it('changes no value of any topology, names of no node included, and may be done again', () => {
    fc.assert(
      fc.property(topology, (t) => {
        const before = structuredClone(t);
        const shared = shareTopologyStrings(t);
        expect(shared).toBe(t);
        expect(shared).toEqual(before);
        expect(shareTopologyStrings(structuredClone(shared))).toEqual(before);
      }),
    );
  });
});
