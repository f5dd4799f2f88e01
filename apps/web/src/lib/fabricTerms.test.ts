import { describe, expect, it } from 'vitest';
import { anyNetworkHas, fabricTerms, networkTypes, unmeasuredCables } from './fabricTerms.ts';

describe('networkTypes', () => {
  it("names the fabric's own type first, then the other networks its cables belong to", () => {
    const mixed = {
      fabricType: 'infiniband' as const,
      links: [{}, { fabricType: 'ethernet' as const }, { fabricType: 'infiniband' as const }],
    };
    expect(networkTypes(mixed)).toEqual(['infiniband', 'ethernet']);
    expect(anyNetworkHas(networkTypes(mixed), 'waitCounter')).toBe(true);
  });

  it("an Ethernet cable's wait is its PFC pause; only its PM categories are unmeasured", () => {
    expect(fabricTerms('ethernet').waitCounter).toBe('PFC pause');
    const mixed = {
      fabricType: 'omnipath' as const,
      links: [{ id: 'a/1--b/1' }, { id: 'c/1--d/1', fabricType: 'ethernet' as const }],
    };
    expect([...unmeasuredCables(mixed)]).toEqual([['c/1--d/1', 'Ethernet']]);
  });

  it('is the type its cables all say when they all say another', () => {
    const relabelled = { fabricType: 'omnipath' as const, links: [{ fabricType: 'ethernet' as const }] };
    expect(networkTypes(relabelled)).toEqual(['ethernet']);
  });

  it('reads a topology once, however often asked (the header asks on every message)', () => {
    const topology = { fabricType: 'omnipath' as const, links: [{}, {}] };
    const first = networkTypes(topology);
    expect(networkTypes(topology)).toBe(first);
    expect(networkTypes({ ...topology })).not.toBe(first);
    expect(networkTypes({ ...topology })).toEqual(first);
  });
});
