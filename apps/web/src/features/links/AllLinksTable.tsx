import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useRef } from 'react';
import { DataTable } from '../../components/DataTable.tsx';
import { ErrorNote } from '../../components/ErrorNote.tsx';
import { formatClock, formatCount } from '../../lib/format.ts';
import type { KindFilter, SortKey } from '../../lib/ranking.ts';
import { useRateFormat } from '../../state/preferences.ts';
import { useAllLinks } from './allLinks.ts';
import { columns, LinkRow } from './LinkRow.tsx';

/** One row's height (CSS keeps it: `.all-links tr`): the virtualizer places rows by it. */
export const ALL_ROW_PX = 30;
/** Rows drawn beyond the visible ones on each side, so a scroll never shows a blank. */
const OVERSCAN = 12;
/** Ask for the next page when the rows drawn come this near the end of those read. */
const READ_AHEAD = 200;

interface AllLinksTableProps {
  kind: KindFilter;
  sort: SortKey;
  /** The instant shown (ms), or null when live. */
  atMs: number | null;
  hasWait: boolean;
  unmeasured?: ReadonlyMap<string, string> | undefined;
  onOpenHistory?: ((id: string) => void) | undefined;
}

/**
 * Every link direction of the ranking, paged from `/links` as it scrolls, drawn as a virtual list
 * (@tanstack/react-virtual): the DOM holds the rows in view, whether the fabric has 400 or 110,000.
 */
export function AllLinksTable({ kind, sort, atMs, hasWait, unmeasured, onOpenHistory }: AllLinksTableProps) {
  const rates = useRateFormat();
  const all = useAllLinks(kind, sort, atMs);
  const scrollRef = useRef<HTMLElement>(null);
  const virtualizer = useVirtualizer({
    count: all.rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ALL_ROW_PX,
    overscan: OVERSCAN,
  });
  const items = virtualizer.getVirtualItems();
  const lastDrawn = items.at(-1)?.index ?? -1;
  const { hasMore, loadingMore, loadMore, rows } = all;
  useEffect(() => {
    if (hasMore && !loadingMore && lastDrawn >= rows.length - READ_AHEAD) void loadMore();
  }, [hasMore, loadingMore, loadMore, lastDrawn, rows.length]);

  if (all.error) return <ErrorNote message={`Link ranking: ${all.error}`} onRetry={all.refresh} />;
  const top = items[0]?.start ?? 0;
  const bottom = virtualizer.getTotalSize() - (items.at(-1)?.end ?? 0);
  return (
    <>
      <p className="muted all-links-status" aria-live="polite">
        {all.total === null
          ? 'Reading the ranking…'
          : `${formatCount(rows.length)} of ${formatCount(all.total)} link directions read${
              hasMore ? ' (more as you scroll)' : ''
            }, ranked at ${all.time ? formatClock(Date.parse(all.time)) : '—'}`}{' '}
        <button type="button" className="btn btn-small" onClick={() => void all.refresh()}>
          Rank again
        </button>
      </p>
      <section
        ref={scrollRef}
        className="all-links"
        data-total={all.total ?? ''}
        // A named region the keyboard can scroll: the list is taller than its box.
        aria-label="Every link direction, ranked (scrolls)"
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be reachable by keyboard
        tabIndex={0}
      >
        <DataTable
          label="Every link direction"
          className={null}
          hiddenCaption="Every link direction"
          columns={columns(hasWait)}
        >
          {top > 0 && <tr className="spacer" style={{ height: top }} />}
          {items.map((item) => {
            const link = rows[item.index];
            return link ? (
              <LinkRow
                key={link.id}
                link={link}
                rank={item.index + 1}
                network={unmeasured?.get(link.linkId) ?? null}
                sort={sort}
                hasWait={hasWait}
                rates={rates}
                onOpenHistory={onOpenHistory}
              />
            ) : null;
          })}
          {bottom > 0 && <tr className="spacer" style={{ height: bottom }} />}
        </DataTable>
      </section>
    </>
  );
}
