import type { Analysis } from '@fabscope/contracts';
import { describe, expect, it } from 'vitest';
import {
  collisionRows,
  draftOf,
  measuredByPair,
  noIslContentionText,
  pairKey,
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
      job: 'contention-check',
    });
    // Every kind: the analysed flows themselves while the answer lists them all.
    expect(trafficFor({ kind: 'permutation', arg: '7' }, seed)).toMatchObject({ pattern: 'pairs' });
    expect(trafficFor({ kind: 'all-to-all', arg: '' }, seed)).toMatchObject({ pattern: 'pairs' });
  });

  it('sends the pattern by name over the analysed hosts when the flows are not all listed', () => {
    const cut = { ...seed, flows: seed.flows.slice(0, 1) };
    const hosts = ['nodeA', 'nodeB', 'nodeC', 'nodeD'];
    expect(trafficFor({ kind: 'shift', arg: '2' }, cut)).toEqual({
      pattern: 'shift',
      k: 2,
      job: 'contention-check',
    });
    expect(trafficFor({ kind: 'permutation', arg: '7' }, { ...cut, hosts })).toEqual({
      pattern: 'permutation',
      seed: 7,
      hosts,
      job: 'contention-check',
    });
    expect(trafficFor({ kind: 'permutation', arg: '' }, cut)).toMatchObject({
      pattern: 'permutation',
      seed: 1,
    });
    expect(trafficFor({ kind: 'bisection', arg: '' }, cut)).toMatchObject({ pattern: 'bisection' });
    expect(trafficFor({ kind: 'pairs', arg: 'a-b' }, cut)).toBeNull();
    expect(trafficFor({ kind: 'all-to-all', arg: '' }, cut)).toMatchObject({ pattern: 'all-to-all' });
    const incast = { ...seed, routedCount: 3, flows: [{ from: 'nodeB', to: 'nodeA', rateGbps: 1, hops: 2 }] };
    expect(trafficFor({ kind: 'incast', arg: '0x11' }, incast)).toEqual({
      pattern: 'incast',
      to: 'nodeA',
      job: 'contention-check',
    });
    expect(trafficFor({ kind: 'incast', arg: 'nodeA' }, { ...incast, hosts })).toMatchObject({
      from: ['nodeB', 'nodeC', 'nodeD'],
    });
  });

  it('sends more than 20,000 listed flows by name (the request body limit)', () => {
    const many = Array.from({ length: 20_001 }, (_, i) => ({
      from: `h${i}`,
      to: `h${i + 1}`,
      rateGbps: 1,
      hops: 2,
    }));
    const big = { ...seed, flowCount: many.length, routedCount: many.length, flows: many };
    expect(trafficFor({ kind: 'shift', arg: '1' }, big)).toMatchObject({ pattern: 'shift', k: 1 });
  });

  it('measures every pair once however many streams it has, and explains endpoint-bound patterns', () => {
    const measured = measuredByPair([
      { from: 'a', to: 'b', bytesPerSecond: 1 },
      { from: 'a', to: 'b', bytesPerSecond: 2 },
      { from: 'b', to: 'a', bytesPerSecond: 5 },
    ]);
    expect(measured.get(pairKey('a', 'b'))).toBe(3);
    expect(measured.get(pairKey('b', 'a'))).toBe(5);
    // The slowest flow in the unit the viewer chose, not always in bits.
    expect(noIslContentionText({ ...seed, maxLinkLoad: 31, minFlowGbps: 3.226 }, 'bits')).toMatch(
      /up to 31 flows share one host port.*slowest 3\.23 Gb\/s/,
    );
    expect(noIslContentionText({ ...seed, maxLinkLoad: 31, minFlowGbps: 3.226 }, 'bytes')).toMatch(
      /slowest 403\.3 MB\/s/,
    );
    expect(noIslContentionText({ ...seed, maxLinkLoad: 1 }, 'bytes')).toMatch(/no contention/);
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
  });
});
