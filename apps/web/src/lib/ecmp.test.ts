import { describe, expect, it } from 'vitest';
import { ecmpSummary, ecmpVia } from './ecmp.ts';

describe('the ECMP set as the route view lists it', () => {
  it('names a member by the switches it crosses', () => {
    const links = ['host1/1->leaf1/1', 'leaf1/4->spine2/1', 'spine2/3->leaf3/4', 'leaf3/1->host5/1'];
    expect(ecmpVia({ links })).toBe('leaf1 → spine2 → leaf3');
    expect(ecmpVia({ links: ['host1/1->host2/1'] })).toBe('direct');
  });

  it('says how many paths there are, how many are listed, and that the hash is the switch’s', () => {
    const member = { links: [], utilization: null, transmitWaitFraction: null, taken: false };
    expect(ecmpSummary({ paths: 1, members: [member] })).toMatch(/^1 equal-cost path: .*switch's hash/);
    expect(ecmpSummary({ paths: 100, members: Array(64).fill(member) })).toMatch(
      /^100 equal-cost paths, the first 64 listed/,
    );
  });
});
