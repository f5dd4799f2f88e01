import type { LinkDirectionState } from '@fabscope/contracts';
import { describe, expect, it } from 'vitest';
import { linkState } from '../test/testFixtures.ts';
import { DEFAULT_TOP_N, parseKindFilter, parseSortKey, parseTopN, rankLinks } from './ranking.ts';

function sample(
  id: string,
  kind: 'isl' | 'host',
  utilization: number | null,
  transmitWaitFraction: number | null = null,
): LinkDirectionState {
  return linkState(id, { kind, utilization, transmitWaitFraction });
}

const links = [
  sample('nodeA/1->edge1/1', 'host', 0.5),
  sample('edge1/4->core2/1', 'isl', 1),
  sample('edge1/3->core1/1', 'isl', 0),
  sample('nodeB/1->edge1/2', 'host', 0.5),
  sample('edge2/4->core2/2', 'isl', null),
  sample('core2/2->edge2/4', 'isl', 0.99),
];

describe('rankLinks', () => {
  it('sorts by utilization descending, ties by id, unknown last', () => {
    expect(rankLinks(links, { kind: 'all', limit: 0 }).map((l) => l.id)).toEqual([
      'edge1/4->core2/1',
      'core2/2->edge2/4',
      'nodeA/1->edge1/1',
      'nodeB/1->edge1/2',
      'edge1/3->core1/1',
      'edge2/4->core2/2',
    ]);
  });

  it('ranks ties in natural order: core1/2 before core1/10, as people count ports', () => {
    const tied = ['core1/10', 'core1/2', 'core1/1', 'core10/1'].map((from) =>
      sample(`${from}->x/1`, 'isl', 0.5),
    );
    expect(rankLinks(tied, { kind: 'all', limit: 0 }).map((l) => l.id)).toEqual([
      'core1/1->x/1',
      'core1/2->x/1',
      'core1/10->x/1',
      'core10/1->x/1',
    ]);
  });

  it('filters by kind and keeps the top N', () => {
    expect(rankLinks(links, { kind: 'host', limit: 10 }).map((l) => l.id)).toEqual([
      'nodeA/1->edge1/1',
      'nodeB/1->edge1/2',
    ]);
    expect(rankLinks(links, { kind: 'isl', limit: 2 }).map((l) => l.id)).toEqual([
      'edge1/4->core2/1',
      'core2/2->edge2/4',
    ]);
  });

  it('does not mutate its input', () => {
    const before = links.map((l) => l.id);
    rankLinks(links, { kind: 'all', limit: 3 });
    expect(links.map((l) => l.id)).toEqual(before);
  });
});

describe('rankLinks by congestion', () => {
  const waiting = [
    sample('nodeA/1->edge1/1', 'host', 0.5, 0.5),
    sample('edge1/4->core2/1', 'isl', 1, 0.5),
    sample('core2/2->edge2/4', 'isl', 0.99, 0),
    sample('edge2/4->core2/2', 'isl', null, null),
    sample('nodeB/1->edge1/2', 'host', 0.5, 0.49),
    sample('edge1/3->core1/1', 'isl', 0, null),
  ];

  it('sorts by wait share descending, ties by utilization, unknown wait last', () => {
    expect(rankLinks(waiting, { kind: 'all', limit: 0, sort: 'congestion' }).map((l) => l.id)).toEqual([
      'edge1/4->core2/1',
      'nodeA/1->edge1/1',
      'nodeB/1->edge1/2',
      'core2/2->edge2/4',
      'edge1/3->core1/1',
      'edge2/4->core2/2',
    ]);
  });

  it('keeps utilization as the default order', () => {
    expect(rankLinks(waiting, { kind: 'isl', limit: 1 }).map((l) => l.id)).toEqual(['edge1/4->core2/1']);
    expect(rankLinks(waiting, { kind: 'host', limit: 0, sort: 'utilization' }).map((l) => l.id)).toEqual([
      'nodeA/1->edge1/1',
      'nodeB/1->edge1/2',
    ]);
  });
});

describe('rankLinks by a PM category', () => {
  const withCategories = (
    id: string,
    kind: 'isl' | 'host',
    util: number,
    integrity: number | null,
    congestion: number | null,
  ) =>
    linkState(id, {
      kind,
      utilization: util,
      transmitWaitFraction: congestion === null ? null : congestion / 10,
      categories: { integrity, congestion },
    });
  const links = [
    withCategories('edge1/4->core2/1', 'isl', 0.1, 12, 0.5),
    withCategories('core2/1->edge1/4', 'isl', 0.1, 12, 8.58),
    withCategories('edge1/3->core1/1', 'isl', 0.9, 0, 8.58),
    withCategories('edge2/3->core1/2', 'isl', 0.2, null, null),
    withCategories('nodeA/1->edge1/1', 'host', 0.5, 0.3, 0),
  ];

  it('worst first, unknown last, ties by id: the order of /api/v1/links?sort=<category>', () => {
    expect(rankLinks(links, { kind: 'all', limit: 0, sort: 'integrity' }).map((l) => l.id)).toEqual([
      'core2/1->edge1/4',
      'edge1/4->core2/1',
      'nodeA/1->edge1/1',
      'edge1/3->core1/1',
      'edge2/3->core1/2',
    ]);
    // Congestion by the category, ties by id (not by utilization as the wait order breaks them).
    expect(rankLinks(links, { kind: 'isl', limit: 2, sort: 'congestion' }).map((l) => l.id)).toEqual([
      'core2/1->edge1/4',
      'edge1/3->core1/1',
    ]);
  });

  it('every category is a sort key of the URL', () => {
    for (const key of ['integrity', 'smaCongestion', 'bubble', 'security', 'routing'])
      expect(parseSortKey(key)).toBe(key);
  });
});

describe('view state parsing', () => {
  it('accepts known values and falls back to defaults', () => {
    expect(parseKindFilter('isl')).toBe('isl');
    expect(parseKindFilter('bogus')).toBe('all');
    expect(parseKindFilter(null)).toBe('all');
    expect(parseTopN('20')).toBe(20);
    expect(parseTopN('0')).toBe(0);
    expect(parseTopN('7')).toBe(DEFAULT_TOP_N);
    expect(parseTopN(null)).toBe(DEFAULT_TOP_N);
    expect(parseSortKey('congestion')).toBe('congestion');
    expect(parseSortKey('bogus')).toBe('utilization');
    expect(parseSortKey(null)).toBe('utilization');
  });
});
