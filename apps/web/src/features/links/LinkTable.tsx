import type { LinkDirectionState } from '@fabscope/contracts';
import { memo, useId } from 'react';
import { DataTable } from '../../components/DataTable.tsx';
import { Options } from '../../components/Options.tsx';
import { formatCount } from '../../lib/format.ts';
import {
  KIND_FILTERS,
  type KindFilter,
  rankLinks,
  SORT_KEYS,
  type SortKey,
  TOP_N_CHOICES,
} from '../../lib/ranking.ts';
import { useRateFormat } from '../../state/preferences.ts';
import { AllLinksTable } from './AllLinksTable.tsx';
import { COLUMNS, columns, LinkRow } from './LinkRow.tsx';

interface LinkTableProps {
  links: readonly LinkDirectionState[] | null;
  /** Whether any network of the fabric counts XmitWait (Ethernet does not): no Wait % column otherwise. */
  hasWait?: boolean;
  /** Cables (by id) on a network without XmitWait and PM categories, with its name (unmeasuredCables). */
  unmeasured?: ReadonlyMap<string, string>;
  /** Link directions in the fabric (default: links.length). */
  totalDirections?: number | null;
  /** True when `links` holds only the busiest directions (the compact stream's top). */
  partial?: boolean;
  kind: KindFilter;
  topN: number;
  /** Rank by utilization (default), by congestion or by another PM category. */
  sort?: SortKey;
  onKindChange: (kind: KindFilter) => void;
  onTopNChange: (n: number) => void;
  onSortChange?: (sort: SortKey) => void;
  /** Opens a direction's history (the link name becomes a button). */
  onOpenHistory?: (id: string) => void;
  /** The instant shown (ms), null live: "all" pages through that instant's `/links`. */
  atMs?: number | null;
}

const KIND_LABEL: Record<KindFilter, string> = { all: 'all', isl: 'ISL', host: 'host' };
const SORT_LABEL: Record<SortKey, string> = {
  utilization: 'by utilization',
  congestion: 'by congestion',
  integrity: 'by integrity',
  smaCongestion: 'by SMA congestion',
  bubble: 'by bubble',
  security: 'by security',
  routing: 'by routing',
};
/** opatop-style table of the busiest link directions. */
export const LinkTable = memo(function LinkTable({
  links,
  totalDirections = null,
  partial = false,
  kind,
  topN,
  sort = 'utilization',
  onKindChange,
  onTopNChange,
  onSortChange,
  onOpenHistory,
  hasWait = true,
  unmeasured,
  atMs = null,
}: LinkTableProps) {
  const rates = useRateFormat();
  const topId = useId();
  const kindId = useId();
  const sortId = useId();
  // "All" of a fabric whose stream sends only the busiest: every direction, paged from `/links`.
  const everyDirection = topN === 0 && partial;
  const rows = links && !everyDirection ? rankLinks(links, { kind, limit: topN, sort }) : [];

  return (
    <div className="link-table">
      <div className="table-controls">
        <label htmlFor={topId}>Show top</label>
        <select id={topId} value={topN} onChange={(e) => onTopNChange(Number(e.target.value))}>
          <Options values={TOP_N_CHOICES} label={(n) => (n === 0 ? 'all' : n)} />
        </select>
        <label htmlFor={kindId}>Link kind</label>
        <select id={kindId} value={kind} onChange={(e) => onKindChange(e.target.value as KindFilter)}>
          <Options values={KIND_FILTERS} label={(k) => KIND_LABEL[k]} />
        </select>
        {onSortChange && (
          <>
            <label htmlFor={sortId}>Sort</label>
            <select id={sortId} value={sort} onChange={(e) => onSortChange(e.target.value as SortKey)}>
              <Options values={SORT_KEYS} label={(k) => SORT_LABEL[k]} />
            </select>
          </>
        )}
        {links && !everyDirection && (
          <span className="muted">
            {rows.length} of {formatCount(totalDirections ?? links.length)} link directions
            {partial && ' (the stream sends the first 50 ISL and 50 host-link directions of every ranking)'}
          </span>
        )}
      </div>
      {everyDirection ? (
        <AllLinksTable
          kind={kind}
          sort={sort}
          atMs={atMs}
          hasWait={hasWait}
          unmeasured={unmeasured}
          onOpenHistory={onOpenHistory}
        />
      ) : (
        <DataTable label="Busiest links" className={null} caption="Busiest links" columns={columns(hasWait)}>
          {rows.length === 0 && (
            <tr>
              <td colSpan={hasWait ? COLUMNS : COLUMNS - 1} className="placeholder">
                {links === null ? 'Waiting for the first sample…' : 'No link directions match this filter.'}
              </td>
            </tr>
          )}
          {rows.map((l, i) => (
            <LinkRow
              key={l.id}
              link={l}
              rank={i + 1}
              network={unmeasured?.get(l.linkId) ?? null}
              sort={sort}
              hasWait={hasWait}
              rates={rates}
              onOpenHistory={onOpenHistory}
            />
          ))}
        </DataTable>
      )}
    </div>
  );
});
