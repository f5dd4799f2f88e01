import type { LinkHistory } from '@fabscope/contracts';
import { formatDirection } from '../../lib/format.ts';
import type { ChartSeries } from './TimeSeriesChart.tsx';
import { alignSeries, type ChartColumns, toChartColumns } from './timeSeries.ts';

/**
 * The link history chart's lines: utilization and XmitWait share per direction on one 0–100 % axis, errors per second
 * on a second axis at the right.
 */

export type LinkMeasure = 'utilization' | 'wait' | 'errors';

export const LINK_MEASURES: readonly { measure: LinkMeasure; label: string; note?: string }[] = [
  { measure: 'utilization', label: 'Utilization' },
  { measure: 'wait', label: 'Wait (XmitWait)', note: 'dashed' },
  { measure: 'errors', label: 'Errors/s', note: 'dotted, right axis' },
];

type LinkPoint = LinkHistory['series'][number]['points'][number];
const READ: Record<LinkMeasure, (p: LinkPoint) => number | null> = {
  utilization: (p) => p.utilization,
  wait: (p) => p.transmitWaitFraction,
  // Absent (a store that keeps none) is unknown, never 0.
  errors: (p) => p.errorsPerSecond ?? null,
};
// Wait is dashed and errors dotted in their direction's colour, so a direction's lines read as a set.
const DASH: Record<LinkMeasure, readonly number[] | undefined> = {
  utilization: undefined,
  wait: [6, 4],
  errors: [2, 3],
};
const WORD: Record<LinkMeasure, string> = { utilization: 'utilization', wait: 'wait', errors: 'errors/s' };

export interface LinkChart {
  columns: ChartColumns;
  series: ChartSeries[];
}

/** One line per direction and measure shown, direction by direction; unknown stays null (a gap). */
export function linkChart(
  history: LinkHistory['series'],
  shown: ReadonlySet<LinkMeasure>,
  colors: readonly string[],
): LinkChart {
  const measures = LINK_MEASURES.filter((m) => shown.has(m.measure));
  const lines: { xs: number[]; ys: (number | null)[] }[] = [];
  const series: ChartSeries[] = [];
  history.forEach((s, i) => {
    const color = colors[i % colors.length] ?? '#58a6ff';
    const [xs, ...ys] = toChartColumns(
      s.points,
      measures.map((m) => READ[m.measure]),
    );
    measures.forEach((m, k) => {
      lines.push({ xs, ys: ys[k] ?? [] });
      const dash = DASH[m.measure];
      series.push({
        label: `${formatDirection(s.id)} ${WORD[m.measure]}`,
        color,
        ...(dash ? { dash } : {}),
        ...(m.measure === 'errors' ? { scale: 'perSecond' as const } : {}),
      });
    });
  });
  return { columns: alignSeries(lines), series };
}
