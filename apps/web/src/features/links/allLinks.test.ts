import { describe, expect, it } from 'vitest';
import { linkState } from '../../test/testFixtures.ts';
import { ALL_PAGE_ROWS, firstPageQuery, joinPages } from './allLinks.ts';

describe('"Show top: all": every direction paged from /links', () => {
  it('asks the first page by its ranking and instant, never sending an unset filter', () => {
    expect(firstPageQuery('all', 'utilization', null)).toEqual({
      limit: String(ALL_PAGE_ROWS),
      sort: 'utilization',
    });
    expect(firstPageQuery('isl', 'congestion', Date.parse('2026-11-29T12:00:00Z'))).toEqual({
      limit: String(ALL_PAGE_ROWS),
      sort: 'congestion',
      kind: 'isl',
      time: '2026-11-29T12:00:00.000Z',
    });
  });

  it('joins the pages read in order, with the whole list’s length and instant from the first', () => {
    const page = (ids: string[], next?: string) => ({
      time: 't0',
      total: 5,
      links: ids.map((id) => linkState(id)),
      ...(next ? { next } : {}),
    });
    const joined = joinPages([page(['a->b', 'b->a'], 'c1'), page(['c->d', 'd->c'], 'c2')]);
    expect(joined.rows.map((l) => l.id)).toEqual(['a->b', 'b->a', 'c->d', 'd->c']);
    expect(joined).toMatchObject({ total: 5, time: 't0' });
    expect(joinPages([])).toEqual({ rows: [], total: null, time: null });
  });
});
