import { describe, expect, it } from 'vitest';
import { anyNetworkHas, networkTypes } from './fabricTerms.ts';

describe('networkTypes', () => {
  it("names the fabric's own type first, then the other networks its cables belong to", () => {
    const mixed = {
      fabricType: 'infiniband' as const,
      links: [{}, { fabricType: 'ethernet' as const }, { fabricType: 'infiniband' as const }],
    };
    expect(networkTypes(mixed)).toEqual(['infiniband', 'ethernet']);
    expect(anyNetworkHas(networkTypes(mixed), 'waitCounter')).toBe(true);
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
