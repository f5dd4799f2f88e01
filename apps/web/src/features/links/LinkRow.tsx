import type { LinkDirectionState } from '@fabscope/contracts';
import { memo } from 'react';
import { type Column, num } from '../../components/DataTable.tsx';
import { utilizationColor } from '../../lib/colors.ts';
import { formatEnds, formatMpps, formatPercentValue } from '../../lib/format.ts';
import {
  CATEGORY_LABELS,
  crossedCategories,
  errorSummary,
  isCongested,
  ofThreshold,
} from '../../lib/linkHealth.ts';
import type { SortKey } from '../../lib/ranking.ts';
import type { useRateFormat } from '../../state/preferences.ts';
import { sameValues } from './sameValues.ts';

const WAIT_TITLE = 'XmitWait: share of time the sending port had data queued and no credit (congestion)';
const HEALTH_TITLE =
  'PM categories at 75 % of their threshold or more (opafm: Integrity, Congestion, SMA congestion, Bubble, Security, Routing)';
export const columns = (hasWait: boolean): Column[] => [
  '#',
  'Link (from → to)',
  'Kind',
  num('Util %'),
  num('Throughput'),
  num('Packets/s (M)'),
  hasWait && num('Wait %', WAIT_TITLE),
  { label: 'Health', title: HEALTH_TITLE },
];
export const COLUMNS = 8;

export interface LinkRowProps {
  link: LinkDirectionState;
  rank: number;
  /** The network whose ports have no PM categories, when the link is on one. */
  network: string | null;
  sort: SortKey;
  hasWait: boolean;
  rates: ReturnType<typeof useRateFormat>;
  onOpenHistory: ((id: string) => void) | undefined;
}

/** One ranked direction, not drawn again while its values and rank stay. */
export const LinkRow = memo(
  function LinkRow({ link: l, rank, network, sort, hasWait, rates, onOpenHistory }: LinkRowProps) {
    const unknown = l.stale || l.utilization === null;
    const down = l.linkUp === false;
    const wait = l.transmitWaitFraction;
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
            title={network === null ? undefined : `PFC pause share of time on ${network}`}
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
