import { useId } from 'react';
import { LEGEND_TICKS, legendStops, UNKNOWN_COLOR } from '../lib/colors.ts';
import { formatPercent } from '../lib/format.ts';

const WIDTH = 220;
const BAR_HEIGHT = 10;

/** Utilization colour legend, 0 → 100 %, plus the colour of unknown/stale directions. */
export function Legend() {
  const gradientId = useId();
  const stops = legendStops(11);
  return (
    <figure className="legend" aria-label="Utilization colour scale from 0 % to 100 %">
      <svg width={WIDTH + 36} height={BAR_HEIGHT + 18} role="presentation">
        <defs>
          <linearGradient id={gradientId} x1="0" x2="1" y1="0" y2="0">
            {stops.map((s) => (
              <stop key={s.offset} offset={s.offset} stopColor={s.color} />
            ))}
          </linearGradient>
        </defs>
        <g transform="translate(14,2)">
          <rect width={WIDTH} height={BAR_HEIGHT} fill={`url(#${gradientId})`} />
          {LEGEND_TICKS.map((t) => (
            <text key={t} x={t * WIDTH} y={BAR_HEIGHT + 13} textAnchor="middle" className="legend-tick">
              {formatPercent(t, 0)}
            </text>
          ))}
        </g>
      </svg>
      <span className="legend-unknown">
        <span className="swatch" style={{ background: UNKNOWN_COLOR }} /> unknown / stale
      </span>
    </figure>
  );
}
