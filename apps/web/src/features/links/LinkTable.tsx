import type { LinkDirectionState } from '@fabscope/contracts';
import { memo, useId } from 'react';
import { type Column, DataTable, num } from '../../components/DataTable.tsx';
import { Options } from '../../components/Options.tsx';
import { utilizationColor } from '../../lib/colors.ts';
import { formatCount, formatEnds, formatMpps, formatPercentValue } from '../../lib/format.ts';
import {
  CATEGORY_LABELS,
  crossedCategories,
  errorSummary,
  isCongested,
  ofThreshold,
} from '../../lib/linkHealth.ts';
import {
  KIND_FILTERS,
  type KindFilter,
  rankLinks,
  SORT_KEYS,
  type SortKey,
  TOP_N_CHOICES,
} from '../../lib/ranking.ts';
import { useRateFormat } from '../../state/preferences.ts';
import { sameValues } from './sameValues.ts';

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
const WAIT_TITLE = 'XmitWait: share of time the sending port had data queued and no credit (congestion)';
const HEALTH_TITLE =
  'PM categories at 75 % of their threshold or more (opafm: Integrity, Congestion, SMA congestion, Bubble, Security, Routing)';
const columns = (hasWait: boolean): Column[] => [
  '#',
  'Link (from → to)',
  'Kind',
  num('Util %'),
  num('Throughput'),
  num('Packets/s (M)'),
  hasWait && num('Wait %', WAIT_TITLE),
  { label: 'Health', title: HEALTH_TITLE },
];
const COLUMNS = 8;

interface LinkRowProps {
  link: LinkDirectionState;
  rank: number;
  /** The network whose ports measure no XmitWait or PM categories, when the link is on one. */
  network: string | null;
  sort: SortKey;
  hasWait: boolean;
  rates: ReturnType<typeof useRateFormat>;
  onOpenHistory: ((id: string) => void) | undefined;
}

/** One ranked direction, not drawn again while its values and rank stay. */
const LinkRow = memo(
  function LinkRow({ link: l, rank, network, sort, hasWait, rates, onOpenHistory }: LinkRowProps) {
    const unknown = l.stale || l.utilization === null;
    const down = l.linkUp === false;
    const wait = network === null ? l.transmitWaitFraction : null;
    const congested = isCongested(wait);
    const crossed = network === null ? crossedCategories(l, 0.75) : [];
    const sorted = sort === 'utilization' ? null : (l.categories?.[sort] ?? null);
    return (
      <tr
        data-link-id={l.id}
        data-category={sorted ?? ''}
        data-utilization={l.utilization ?? ''}
        data-wait={wait ?? ''}
        data-stale={l.stale ? 'true' : 'false'}
        data-link-up={l.linkUp === null ? '' : String(l.linkUp)}
        className={`${unknown ? 'row-stale' : ''} ${down ? 'row-down' : ''}`}
      >
        <td className="num muted">{rank}</td>
        <td className="mono">
          {onOpenHistory ? (
            <button
              type="button"
              className="link-button"
              title="Open its history"
              onClick={() => onOpenHistory(l.id)}
            >
              {formatEnds(l)}
            </button>
          ) : (
            formatEnds(l)
          )}
          {down && <span className="chip chip-down">down</span>}
          {l.stale && <span className="chip chip-stale">stale</span>}
        </td>
        <td>{l.kind === 'isl' ? 'ISL' : 'host'}</td>
        <td className="num util-cell">
          <span
            className="util-bar"
            aria-hidden="true"
            style={{
              width: `${Math.min(100, Math.max(0, (l.utilization ?? 0) * 100))}%`,
              background: unknown ? 'transparent' : utilizationColor(l.utilization),
            }}
          />
          <span className="util-text">{formatPercentValue(l.utilization)}</span>
        </td>
        <td className="num">{rates.rate(l.bytesPerSecond)}</td>
        <td className="num">{formatMpps(l.packetsPerSecond)}</td>
        {hasWait && (
          <td
            className={`num ${congested ? 'wait-high' : ''}`}
            title={network === null ? undefined : `XmitWait: not measured on ${network}`}
            data-not-measured={network ?? undefined}
          >
            {formatPercentValue(wait)}
          </td>
        )}
        <td title={errorSummary(l, network) || undefined} data-not-measured={network ?? undefined}>
          {crossed.map((c) => (
            <span
              key={c.category}
              className={`chip chip-health ${c.value >= 1 ? 'chip-over' : 'chip-near'}`}
              data-category-name={c.category}
            >
              {CATEGORY_LABELS[c.category]} {ofThreshold(c.value)}
            </span>
          ))}
        </td>
      </tr>
    );
  },
  (a, b) =>
    a.rank === b.rank &&
    a.network === b.network &&
    a.sort === b.sort &&
    a.hasWait === b.hasWait &&
    a.rates === b.rates &&
    a.onOpenHistory === b.onOpenHistory &&
    sameValues(a.link, b.link),
);

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
}: LinkTableProps) {
  const rates = useRateFormat();
  const topId = useId();
  const kindId = useId();
  const sortId = useId();
  const rows = links ? rankLinks(links, { kind, limit: topN, sort }) : [];

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
        {links && (
          <span className="muted">
            {rows.length} of {formatCount(totalDirections ?? links.length)} link directions
            {partial && ' (the stream sends the first 50 ISL and 50 host-link directions of every ranking)'}
          </span>
        )}
      </div>
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
    </div>
  );
});
