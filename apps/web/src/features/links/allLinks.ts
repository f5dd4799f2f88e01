import type { LinkDirectionState, LinksAnswer } from '@fabscope/contracts';
import { type InfiniteData, useInfiniteQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useMemo } from 'react';
import type { LinksPageQuery } from '../../api/client.ts';
import type { KindFilter, SortKey } from '../../lib/ranking.ts';
import { useApi } from '../../state/ApiContext.tsx';

/** Rows per `/links` page the whole ranking is read in, as far as the table is scrolled. */
export const ALL_PAGE_ROWS = 1000;

/** The first page's query of a ranking: its sort, its kind unless all, its instant when in the past. */
export function firstPageQuery(kind: KindFilter, sort: SortKey, atMs: number | null): LinksPageQuery {
  return {
    limit: String(ALL_PAGE_ROWS),
    sort,
    ...(kind === 'all' ? {} : { kind }),
    ...(atMs === null ? {} : { time: new Date(atMs).toISOString() }),
  };
}

/** The pages read so far as one list, with the whole list's length and its instant. */
export function joinPages(pages: readonly LinksAnswer[]): {
  rows: LinkDirectionState[];
  total: number | null;
  time: string | null;
} {
  const first = pages[0];
  return {
    rows: pages.flatMap((p) => p.links),
    total: first ? first.total : null,
    time: first ? first.time : null,
  };
}

/**
 * Every direction of the ranking, read a page at a time from one instant's list (the cursor reads on
 * from the same instant): the table asks for the next page as it scrolls near the end of what it has.
 */
export function useAllLinks(kind: KindFilter, sort: SortKey, atMs: number | null) {
  const api = useApi();
  const client = useQueryClient();
  const queryKey = useMemo(() => ['links-all', kind, sort, atMs], [kind, sort, atMs]);
  // Read anew from its first page: a new instant's list (the pages read before were of the old one).
  const refresh = useCallback(() => client.resetQueries({ queryKey, exact: true }), [client, queryKey]);
  const query = useInfiniteQuery<
    LinksAnswer,
    Error,
    InfiniteData<LinksAnswer, string | null>,
    unknown[],
    string | null
  >({
    queryKey,
    initialPageParam: null,
    queryFn: ({ pageParam, signal }) =>
      api.getLinksPage(
        pageParam === null
          ? firstPageQuery(kind, sort, atMs)
          : { limit: String(ALL_PAGE_ROWS), cursor: pageParam },
        signal,
      ),
    getNextPageParam: (last) => last.next ?? null,
    // One instant's list: read again only when asked (Refresh), never under the reader's scroll.
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: 0,
  });
  const pages = query.data?.pages;
  const joined = useMemo(() => joinPages(pages ?? []), [pages]);
  return {
    ...joined,
    error: query.error ? query.error.message : null,
    loading: query.isPending,
    hasMore: query.hasNextPage,
    loadingMore: query.isFetchingNextPage,
    loadMore: query.fetchNextPage,
    refresh,
  };
}
