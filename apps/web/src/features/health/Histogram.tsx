import { memo } from 'react';
import { formatCompactCount, formatCount } from '../../lib/format.ts';
import { histogramBars } from './histogram.ts';

interface HistogramProps {
  title: string;
  counts: readonly number[] | null;
}

const W = 260;
const H = 70;
const AXIS = 14;

/** The same counts, bucket by bucket (each tick's summary brings new arrays, mostly of the same counts). */
export function sameCounts(a: readonly number[] | null, b: readonly number[] | null): boolean {
  if (a === b) return true;
  if (a === null || b === null || a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (!Object.is(a[i], b[i])) return false;
  return true;
}

/** Ten-bucket utilization histogram, drawn again only when a count changed. */
export const Histogram = memo(
  function Histogram({ title, counts }: HistogramProps) {
    if (counts === null) {
      return (
        <figure className="histogram">
          <figcaption>{title}</figcaption>
          <p className="placeholder">Waiting for the first sample…</p>
        </figure>
      );
    }
    let geometry: ReturnType<typeof histogramBars>;
    try {
      geometry = histogramBars(counts, W, H);
    } catch (error) {
      return (
        <figure className="histogram">
          <figcaption>{title}</figcaption>
          <p className="error-note">{(error as Error).message}</p>
        </figure>
      );
    }
    const summary = geometry.bars
      .filter((b) => b.count > 0)
      .map((b) => `${formatCount(b.count)} at ${b.label}`)
      .join(', ');
    return (
      <figure className="histogram">
        <figcaption>
          {title} <span className="muted">({formatCount(geometry.total)} directions)</span>
        </figcaption>
        <svg
          viewBox={`0 0 ${W} ${H + AXIS}`}
          role="img"
          aria-label={`${title} utilization histogram: ${summary || 'no link directions'}`}
        >
          {geometry.bars.map((b) => (
            <g key={b.index}>
              <title>{`${b.label}: ${formatCount(b.count)}`}</title>
              <rect className="hist-slot" x={b.x} y={0} width={b.width} height={H} />
              <rect className="hist-bar" x={b.x} y={b.y} width={b.width} height={b.height} />
              {b.count > 0 && (
                <text
                  x={b.x + b.width / 2}
                  y={Math.max(10, b.y - 2)}
                  textAnchor="middle"
                  // Four characters at most (41k, not 41472), so neighbouring counts never overlap.
                  className="hist-count"
                >
                  {formatCompactCount(b.count)}
                </text>
              )}
              {b.index % 2 === 0 && (
                <text x={b.x} y={H + 11} className="hist-axis">
                  {b.index * 10}
                </text>
              )}
            </g>
          ))}
          <text x={W} y={H + 11} textAnchor="end" className="hist-axis">
            100 %
          </text>
        </svg>
      </figure>
    );
  },
  (a, b) => a.title === b.title && sameCounts(a.counts, b.counts),
);
