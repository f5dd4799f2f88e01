import { memo, useId } from 'react';
import { LEGEND_TICKS, type LinkState, legendStops, UNKNOWN_COLOR, utilizationColor } from '../lib/colors.ts';
import { formatPercent } from '../lib/format.ts';

const WIDTH = 220;
const BAR_HEIGHT = 10;

const STATE_LABELS: Record<LinkState, string> = {
  idle: 'idle (0 %)',
  unknown: 'unknown / stale',
  down: 'down',
};

/** One state drawn as the drawing draws it: a stroke (SVG view) or a cell (heatmap, tiers). */
function StateSample({ state, marks }: { state: LinkState; marks: 'stroke' | 'cell' }) {
  if (marks === 'cell')
    return (
      <svg className="state-sample" width="14" height="12" aria-hidden="true">
        {state === 'idle' && <rect width="12" height="12" fill={utilizationColor(0)} />}
        {state === 'unknown' && <rect width="12" height="12" fill={UNKNOWN_COLOR} />}
        {state === 'down' && (
          <>
            <rect width="12" height="12" className="cell-down" />
            <path className="cell-down-cross" d="M2,2 L10,10 M10,2 L2,10" />
          </>
        )}
      </svg>
    );
  return (
    <svg className="state-sample" width={state === 'down' ? 40 : 26} height="14" aria-hidden="true">
      {state === 'idle' && <line x1="3" y1="7" x2="23" y2="7" stroke={utilizationColor(0)} />}
      {state === 'unknown' && <line className="channel-unknown" x1="3" y1="7" x2="23" y2="7" />}
      {state === 'down' && (
        <>
          <line className="channel-down" x1="1" y1="7" x2="25" y2="7" />
          <g className="down-marks" transform="translate(32,7)">
            <circle r="6" />
            <path d="M-3,-3 L3,3 M3,-3 L-3,3" />
          </g>
        </>
      )}
    </svg>
  );
}

/** Utilization legend 0 → 100 % beside idle, unknown and down, drawn as on the fabric; drawn once. */
export const Legend = memo(function Legend({ marks = 'stroke' }: { marks?: 'stroke' | 'cell' }) {
  const gradientId = useId();
  const stops = legendStops(11);
  return (
    <figure className="legend" aria-label="Utilization colour scale from 0 % to 100 %, and link states">
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
      <ul className="state-legend" aria-label="Link states">
        {(Object.keys(STATE_LABELS) as LinkState[]).map((state) => (
          <li key={state} data-state={state}>
            <StateSample state={state} marks={marks} />
            {STATE_LABELS[state]}
          </li>
        ))}
      </ul>
    </figure>
  );
});
