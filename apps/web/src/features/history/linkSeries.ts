import type { LinkHistory } from '@fabscope/contracts';
import { formatDirection } from '../../lib/format.ts';
import type { ChartSeries } from './TimeSeriesChart.tsx';
import { alignSeries, type ChartColumns, toChartColumns } from './timeSeries.ts';

/** The link history chart's lines: utilization and XmitWait share per direction, on one 0–100 % axis. */

export type LinkMeasure = 'utilization' | 'wait';

export const LINK_MEASURES: readonly { measure: LinkMeasure; label: string }[] = [
  { measure: 'utilization', label: 'Utilization' },
  { measure: 'wait', label: 'Wait (XmitWait)' },
];

type LinkPoint = LinkHistory['series'][number]['points'][number];
const READ: Record<LinkMeasure, (p: LinkPoint) => number | null> = {
  utilization: (p) => p.utilization,
  wait: (p) => p.transmitWaitFraction,
};
// Wait is dashed in its direction's colour, so a direction's two lines read as a pair.
const WAIT_DASH = [6, 4];

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
      series.push({
        label: `${formatDirection(s.id)} ${m.measure === 'wait' ? 'wait' : 'utilization'}`,
        color,
        ...(m.measure === 'wait' ? { dash: WAIT_DASH } : {}),
      });
    });
  });
  return { columns: alignSeries(lines), series };
}
