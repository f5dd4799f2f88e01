import { describe, expect, it } from 'vitest';
import type { Analysis } from '../api/types.ts';
import {
  collisionRows,
  draftOf,
  gbpsToBytesPerSecond,
  pairsDraft,
  patternText,
  trafficFor,
} from './contention.ts';

// GET /api/v1/analysis?pattern=pairs:nodeA-nodeC,nodeB-nodeD on ar-demo (static routing).
const seed: Analysis = {
  pattern: 'pairs:nodeA-nodeC,nodeB-nodeD',
  engine: 'fattree',
  flowCount: 2,
  routedCount: 2,
  maxLinkLoad: 2,
  maxIslLoad: 2,
  aggregateGbps: 100,
  minFlowGbps: 50,
  links: [
    { link: 'nodeA/1->edge1/1', kind: 'host', flows: 1, capacityGbps: 100, usedGbps: 50 },
    { link: 'edge1/4->core2/1', kind: 'isl', flows: 2, capacityGbps: 100, usedGbps: 100 },
    { link: 'core2/2->edge2/4', kind: 'isl', flows: 2, capacityGbps: 100, usedGbps: 100 },
    { link: 'edge2/1->nodeC/1', kind: 'host', flows: 1, capacityGbps: 100, usedGbps: 50 },
  ],
  collisions: [
    {
      link: 'edge1/4->core2/1',
      pairs: [
        ['nodeA', 'nodeC'],
        ['nodeB', 'nodeD'],
      ],
    },
    {
      link: 'core2/2->edge2/4',
      pairs: [
        ['nodeA', 'nodeC'],
        ['nodeB', 'nodeD'],
      ],
    },
  ],
  flows: [
    { from: 'nodeA', to: 'nodeC', rateGbps: 50, hops: 4 },
    { from: 'nodeB', to: 'nodeD', rateGbps: 50, hops: 4 },
  ],
  unroutable: [],
  truncated: false,
};

describe('contention pattern text', () => {
  it('builds the API grammar from the form, or says what is missing', () => {
    expect(patternText({ kind: 'pairs', arg: ' nodeA-nodeC , nodeB-nodeD ' })).toEqual({
      ok: true,
      pattern: 'pairs:nodeA-nodeC,nodeB-nodeD',
    });
    expect(patternText({ kind: 'pairs', arg: '' }).ok).toBe(false);
    expect(patternText({ kind: 'shift', arg: '2' })).toEqual({ ok: true, pattern: 'shift:2' });
    expect(patternText({ kind: 'shift', arg: '0' }).ok).toBe(false);
    expect(patternText({ kind: 'shift', arg: 'x' }).ok).toBe(false);
    expect(patternText({ kind: 'permutation', arg: '' })).toEqual({ ok: true, pattern: 'permutation' });
    expect(patternText({ kind: 'permutation', arg: '7' })).toEqual({ ok: true, pattern: 'permutation:7' });
    expect(patternText({ kind: 'permutation', arg: '-1' }).ok).toBe(false);
    expect(patternText({ kind: 'incast', arg: 'nodeA' })).toEqual({ ok: true, pattern: 'incast:nodeA' });
    expect(patternText({ kind: 'incast', arg: '' }).ok).toBe(false);
    expect(patternText({ kind: 'all-to-all', arg: 'ignored' })).toEqual({ ok: true, pattern: 'all-to-all' });
    expect(patternText({ kind: 'bisection', arg: '' })).toEqual({ ok: true, pattern: 'bisection' });
  });

  it('reads a pattern back into the form', () => {
    const fallback = pairsDraft([['nodeA', 'nodeC']]);
    expect(fallback).toEqual({ kind: 'pairs', arg: 'nodeA-nodeC' });
    expect(draftOf('shift:3', fallback)).toEqual({ kind: 'shift', arg: '3' });
    expect(draftOf('all-to-all', fallback)).toEqual({ kind: 'all-to-all', arg: '' });
    expect(draftOf('incast:a:b', fallback)).toEqual({ kind: 'incast', arg: 'a:b' });
    expect(draftOf('melt:1', fallback)).toBe(fallback);
    expect(draftOf(null, fallback)).toBe(fallback);
  });
});

describe('traffic for an analysis', () => {
  it('starts exactly the analysed pairs', () => {
    expect(trafficFor({ kind: 'pairs', arg: 'nodeA-nodeC,nodeB-nodeD' }, seed)).toEqual({
      pattern: 'pairs',
      pairs: [
        ['nodeA', 'nodeC'],
        ['nodeB', 'nodeD'],
      ],
    });
    // shift, permutation, bisection: the analysed flows, not the name (host order may differ)
    expect(trafficFor({ kind: 'permutation', arg: '7' }, seed)).toMatchObject({ pattern: 'pairs' });
  });

  it('sends the pattern by name when the flows are cut, and all-to-all / incast always', () => {
    const cut = { ...seed, truncated: true };
    expect(trafficFor({ kind: 'shift', arg: '2' }, cut)).toEqual({ pattern: 'shift', k: 2 });
    expect(trafficFor({ kind: 'permutation', arg: '' }, cut)).toEqual({ pattern: 'permutation', seed: 1 });
    expect(trafficFor({ kind: 'bisection', arg: '' }, cut)).toEqual({ pattern: 'bisection' });
    expect(trafficFor({ kind: 'pairs', arg: 'a-b' }, cut)).toBeNull();
    expect(trafficFor({ kind: 'all-to-all', arg: '' }, seed)).toEqual({ pattern: 'all-to-all' });
    expect(
      trafficFor(
        { kind: 'incast', arg: '0x11' },
        { ...seed, flows: [{ from: 'b', to: 'nodeA', rateGbps: 1, hops: 2 }] },
      ),
    ).toEqual({
      pattern: 'incast',
      to: 'nodeA',
    });
  });
});

describe('collision rows', () => {
  it('lists shared ISL directions, most flows first, with the colliding pairs', () => {
    const rows = collisionRows(seed);
    expect(rows.map((r) => r.link)).toEqual(['core2/2->edge2/4', 'edge1/4->core2/1']);
    expect(rows[1]).toEqual({
      link: 'edge1/4->core2/1',
      flows: 2,
      usedGbps: 100,
      capacityGbps: 100,
      pairs: ['nodeA → nodeC', 'nodeB → nodeD'],
    });
    expect(collisionRows(seed, 1)).toHaveLength(1);
    expect(gbpsToBytesPerSecond(100)).toBe(12.5e9);
  });
});
