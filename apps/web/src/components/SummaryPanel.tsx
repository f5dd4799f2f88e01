import type { Summary } from '../api/types.ts';
import { formatGBps } from '../lib/format.ts';
import { Histogram } from './Histogram.tsx';

interface SummaryPanelProps {
  summary: Summary | null;
}

/** Fabric-wide numbers: host transmit total and the opatop utilization histograms. */
export function SummaryPanel({ summary }: SummaryPanelProps) {
  const total = summary?.hostTransmitBytesPerSecond ?? null;
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
          {summary === null ? '—' : formatGBps(total)}
        </output>
        <span className="muted small">sum of all host ports' transmit rate</span>
      </div>
      <div className="histograms">
        <Histogram title="ISL" counts={summary?.histogram.isl ?? null} />
        <Histogram title="Host links" counts={summary?.histogram.host ?? null} />
      </div>
    </div>
  );
}
