import type { LinkDirectionState, Summary } from '@fabscope/contracts';
import { formatRate } from '@fabscope/contracts/units';
import { memo } from 'react';
import { usePreference } from '../../state/preferences.ts';
import { HealthLights } from './HealthLights.tsx';
import { Histogram } from './Histogram.tsx';

interface SummaryPanelProps {
  summary: Summary | null;
  /** The directions the client holds, for the worst-directions list. */
  links?: readonly LinkDirectionState[] | null;
  /** Opens a direction of the worst-directions list (its flows, jobs and history). */
  onSelectLink?: ((id: string) => void) | undefined;
  /** Whether the fabric has inter-switch links: without (one switch), no ISL histogram. */
  hasIsls?: boolean;
}

/** Fabric-wide numbers: host transmit total, the opatop utilization histograms and the PM category lights. */
export const SummaryPanel = memo(function SummaryPanel({
  summary,
  links = null,
  onSelectLink,
  hasIsls = true,
}: SummaryPanelProps) {
  const total = summary?.hostTransmitBytesPerSecond ?? null;
  const unit = usePreference('rateUnit');
  return (
    <div className="summary">
      <div className="big-number">
        <span className="big-label" id="host-transmit-label">
          Host transmit total
        </span>
        <output
          aria-labelledby="host-transmit-label"
          data-testid="host-transmit-total"
          data-bytes-per-second={total ?? ''}
          className="big-value"
        >
          {summary === null ? '—' : formatRate(total, unit)}
        </output>
        <span className="muted small">sum of all host ports' transmit rate</span>
      </div>
      <div className="histograms">
        {hasIsls && <Histogram title="ISL" counts={summary?.histogram.isl ?? null} />}
        <Histogram title="Host links" counts={summary?.histogram.host ?? null} />
      </div>
      <HealthLights summary={summary} links={links} onSelectLink={onSelectLink} />
    </div>
  );
});
