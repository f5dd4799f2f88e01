import { describe, expect, it } from 'vitest';
import type { LinkSample } from '../api/types.ts';
import { DEFAULT_TOP_N, parseKindFilter, parseSortKey, parseTopN, rankLinks } from './ranking.ts';

function sample(
  id: string,
  kind: 'isl' | 'host',
  utilization: number | null,
  transmitWaitFraction: number | null = null,
): LinkSample {
  const [from = '', to = ''] = id.split('->');
  const [fn = '', fp = '0'] = from.split('/');
  const [tn = '', tp = '0'] = to.split('/');
  return {
    id,
    linkId: `${from}--${to}`,
    kind,
    from: { node: fn, port: Number(fp) },
    to: { node: tn, port: Number(tp) },
    capacityBytesPerSecond: 12.5e9,
    utilization,
    bytesPerSecond: utilization === null ? null : utilization * 12.5e9,
    packetsPerSecond: null,
    transmitWaitFraction,
    linkUp: true,
    stale: utilization === null,
  };
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
