import { useCallback, useMemo, useRef } from 'react';
import uPlot from 'uplot';
import { EVENT_KIND_COLORS, type EventMark } from '../../lib/events.ts';
import { formatClock, formatPerSecond, formatTimeTick } from '../../lib/format.ts';
import { themeColor } from '../../lib/themeColor.ts';
import type { TimeWindow } from '../../lib/timeRange.ts';
import { type RateFormat, usePreference, useRateFormat } from '../../state/preferences.ts';
import { placeLabels } from './labelPlacement.ts';
import type { ChartColumns } from './timeSeries.ts';
import { type ChartOptions, UPlotChart } from './UPlotChart.tsx';

export interface ChartSeries {
  label: string;
  color: string;
  /** Dash pattern in CSS px (e.g. a wait line beside its utilization); solid when absent. */
  dash?: readonly number[];
  /** On a second axis at the right, counted per second (errors/s beside utilization); absent: the chart's unit. */
  scale?: 'perSecond';
}

export type ChartUnit = 'bytesPerSecond' | 'fraction';

interface TimeSeriesChartProps {
  columns: ChartColumns;
  series: readonly ChartSeries[];
  unit: ChartUnit;
  window: TimeWindow;
  marks: readonly EventMark[];
  /** The instant the dashboard shows (ms), marked with a line; null when live. */
  instantMs: number | null;
  height?: number;
  /** A click on the plot: show that instant. */
  onPick?: (ms: number) => void;
  /** A drag across the plot: show that window. */
  onSelectWindow?: (window: TimeWindow) => void;
  onWidth?: (width: number) => void;
}

// Axis text and the instant marker follow the theme (read when drawn); series colours do not.
const AXIS = () => themeColor('--muted', '#9aa4b2');
const GRID = 'rgba(154, 164, 178, 0.12)';
const INSTANT = () => themeColor('--past-text', '#ffd58a');
const LABEL_ROWS = 3;
const FONT_PX = 11;

/** A value under the cursor: a rate in the viewer's unit, or a percentage. */
function formatValue(unit: ChartUnit, rates: RateFormat, v: number | null): string {
  if (v === null || !Number.isFinite(v)) return '—';
  if (unit === 'fraction') return `${(v * 100).toFixed(0)} %`;
  return rates.rate(v);
}

/** The y axis' ticks: rates all in one prefix (the largest tick's), or percentages. */
function formatTicks(unit: ChartUnit, rates: RateFormat, splits: number[]): string[] {
  if (unit === 'fraction') return splits.map((v) => formatValue(unit, rates, v));
  return rates.ticks(splits);
}

interface Overlay {
  marks: readonly EventMark[];
  instantMs: number | null;
}

/** Event marks with non-overlapping labels and the viewed instant, also as `data-event-marks`. */
const widths = new Map<string, number>();
const WIDTHS_HELD = 4096;

function textWidth(ctx: CanvasRenderingContext2D, text: string): number {
  const key = `${ctx.font}\u0000${text}`;
  let width = widths.get(key);
  if (width === undefined) {
    if (widths.size >= WIDTHS_HELD) widths.clear();
    width = ctx.measureText(text).width;
    widths.set(key, width);
  }
  return width;
}

function drawOverlay(u: uPlot, overlay: Overlay): void {
  const ctx = u.ctx;
  const dpr = uPlot.pxRatio;
  const { left, top, width, height } = u.bbox;
  const font = FONT_PX * dpr;
  const pad = 2 * dpr;
  ctx.save();
  ctx.font = `${font}px system-ui, sans-serif`;
  ctx.textBaseline = 'top';
  // uPlot leaves the context as its last axis label needed it (right-aligned): the label boxes
  // below are measured from the text's left edge.
  ctx.textAlign = 'left';
  const shown = overlay.marks
    .map((m) => ({ ...m, px: u.valToPos(m.x, 'x', true) - left }))
    .filter((m) => Number.isFinite(m.px) && m.px >= 0 && m.px <= width);
  const boxes = placeLabels(
    shown.map((m) => ({ px: m.px, width: textWidth(ctx, m.label) + 2 * pad, priority: m.priority })),
    { widthPx: width, rows: LABEL_ROWS, heightPx: font + 3 * dpr, rowGapPx: dpr, gapPx: 4 * dpr },
  );
  // Events of one instant (a congestion spreading over a pod: tens at once) share one mark line.
  const lines = new Set<string>();
  shown.forEach((m, i) => {
    const x = Math.round(left + m.px) + 0.5;
    const color = EVENT_KIND_COLORS[m.kind] ?? AXIS();
    const lineWidth = dpr * (m.kind === 'adaptive-routing' ? 2 : 1);
    const line = `${x} ${color} ${lineWidth}`;
    if (!lines.has(line)) {
      lines.add(line);
      ctx.strokeStyle = color;
      ctx.lineWidth = lineWidth;
      ctx.setLineDash([4 * dpr, 3 * dpr]);
      ctx.beginPath();
      ctx.moveTo(x, top);
      ctx.lineTo(x, top + height);
      ctx.stroke();
    }
    const box = boxes[i];
    if (!box) return;
    const bx = left + box.x;
    const by = top + 2 * dpr + box.y;
    ctx.fillStyle = 'rgba(13, 17, 23, 0.85)';
    ctx.fillRect(bx, by, box.width, box.height);
    ctx.fillStyle = color;
    ctx.fillText(m.label, bx + pad, by + dpr);
  });
  const css = (v: number) => Math.round((v / dpr) * 100) / 100;
  u.root.dataset.eventMarks = JSON.stringify(
    shown.map((m, i) => {
      const box = boxes[i];
      return {
        kind: m.kind,
        label: m.label,
        time: new Date(m.x * 1000).toISOString(),
        box: box ? { x: css(box.x), y: css(box.y), width: css(box.width), height: css(box.height) } : null,
      };
    }),
  );
  if (overlay.instantMs !== null) {
    const x = Math.round(u.valToPos(overlay.instantMs / 1000, 'x', true)) + 0.5;
    if (x >= left && x <= left + width) {
      ctx.setLineDash([]);
      ctx.strokeStyle = INSTANT();
      ctx.lineWidth = 2 * dpr;
      ctx.beginPath();
      ctx.moveTo(x, top);
      ctx.lineTo(x, top + height);
      ctx.stroke();
    }
  }
  ctx.restore();
}

/** A uPlot time-series chart; click views an instant, drag chooses a window. */
export function TimeSeriesChart({
  columns,
  series,
  unit,
  window,
  marks,
  instantMs,
  height = 200,
  onPick,
  onSelectWindow,
  onWidth,
}: TimeSeriesChartProps) {
  const overlay = useRef<Overlay>({ marks, instantMs });
  overlay.current = { marks, instantMs };
  const handlers = useRef({ onPick, onSelectWindow });
  handlers.current = { onPick, onSelectWindow };

  const seriesKey = series
    .map((s) => `${s.label}:${s.color}:${s.dash?.join(',') ?? ''}:${s.scale ?? ''}`)
    .join('|');
  const perSecond = series.some((s) => s.scale === 'perSecond');
  // The axes' colours are read from the theme when the chart is made: a theme picked makes it anew.
  const theme = usePreference('theme');
  const rates = useRateFormat();
  // biome-ignore lint/correctness/useExhaustiveDependencies: rebuilt when the series' labels or colours, or the theme, change
  const options = useMemo((): ChartOptions => {
    const axis = { stroke: AXIS(), grid: { stroke: GRID }, ticks: { stroke: GRID } };
    return {
      legend: { show: true, live: true },
      cursor: { drag: { x: true, y: false, setScale: false } },
      scales: {
        x: { time: true },
        y: { range: (_u, _min, max) => [0, unit === 'fraction' ? 1 : Math.max(max || 0, 1e9) * 1.1] },
        ...(perSecond ? { perSecond: { range: (_u, _min, max) => [0, Math.max(max || 0, 1) * 1.1] } } : {}),
      },
      axes: [
        {
          ...axis,
          values: (_u, splits, _i, _space, incr) => splits.map((v) => formatTimeTick(v * 1000, incr < 60)),
        },
        {
          ...axis,
          size: 84,
          values: (u, splits) => {
            const ticks = formatTicks(unit, rates, splits);
            // The axis is painted on the canvas: its labels are also written on the chart's element,
            // so what it reads can be checked (e2e: every rate in the unit chosen).
            u.root.dataset.yTicks = ticks.join(' | ');
            return ticks;
          },
        },
        ...(perSecond
          ? [
              {
                ...axis,
                scale: 'perSecond',
                side: 1,
                size: 56,
                grid: { show: false },
                values: (u: uPlot, splits: number[]) => {
                  const ticks = splits.map((v) => `${formatPerSecond(v)}/s`);
                  u.root.dataset.perSecondTicks = ticks.join(' | ');
                  return ticks;
                },
              },
            ]
          : []),
      ],
      series: [
        { value: (_u, v) => (v === null ? '—' : formatClock(v * 1000)) },
        ...series.map((s) => ({
          label: s.label,
          stroke: s.color,
          width: 2,
          ...(s.dash ? { dash: [...s.dash] } : {}),
          ...(s.scale ? { scale: s.scale } : {}),
          spanGaps: false,
          points: { show: false },
          value: (_u: uPlot, v: number | null) =>
            s.scale === 'perSecond' ? `${formatPerSecond(v)}/s` : formatValue(unit, rates, v),
        })),
      ],
      hooks: {
        draw: [(u) => drawOverlay(u, overlay.current)],
        ready: [
          (u) =>
            u.over.addEventListener('click', () => {
              const left = u.cursor.left;
              if (left === undefined || left < 0 || u.select.width > 3) return;
              handlers.current.onPick?.(u.posToVal(left, 'x') * 1000);
            }),
        ],
        setSelect: [
          (u) => {
            if (u.select.width <= 3) return;
            const fromS = u.posToVal(u.select.left, 'x');
            const toS = u.posToVal(u.select.left + u.select.width, 'x');
            u.setSelect({ left: 0, top: 0, width: 0, height: 0 }, false);
            handlers.current.onSelectWindow?.({ fromMs: fromS * 1000, toMs: toS * 1000 });
          },
        ],
      },
    };
  }, [unit, seriesKey, perSecond, theme, rates]);

  const xRange = useMemo(() => ({ min: window.fromMs / 1000, max: window.toMs / 1000 }), [window]);
  const redrawKey = useMemo(() => ({ marks, instantMs }), [marks, instantMs]);
  const width = useCallback((w: number) => onWidth?.(w), [onWidth]);

  return (
    <UPlotChart
      options={options}
      data={columns}
      height={height}
      xRange={xRange}
      redrawKey={redrawKey}
      onWidth={width}
    />
  );
}
