import { useLayoutEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { useWidth } from '../../components/useWidth.ts';

export type ChartOptions = Omit<uPlot.Options, 'width' | 'height'>;

interface UPlotChartProps {
  /** Recreates the chart when it changes: memoize it. */
  options: ChartOptions;
  data: uPlot.AlignedData;
  height: number;
  /** The x window to show (Unix seconds) instead of the data's extent. */
  xRange?: { min: number; max: number } | null;
  /** Anything drawn by hooks from outside state (annotations, markers): a change repaints. */
  redrawKey?: unknown;
  /** Width of the plot in CSS pixels, reported on resize (the query step follows it). */
  onWidth?: (width: number) => void;
}

/** The one owner of a uPlot canvas, created in a layout effect; React never renders inside it. */
export function UPlotChart({ options, data, height, xRange = null, redrawKey, onWidth }: UPlotChartProps) {
  const containerRef = useRef<HTMLDivElement>(null);
  const chartRef = useRef<uPlot | null>(null);
  const width = useWidth(containerRef);
  const latest = useRef({ data, xRange, width, height });
  latest.current = { data, xRange, width, height };

  useLayoutEffect(() => {
    if (width > 0) onWidth?.(width);
  }, [width, onWidth]);

  const ready = width > 0;
  useLayoutEffect(() => {
    const el = containerRef.current;
    if (!el || !ready) return;
    const now = latest.current;
    const chart = new uPlot({ ...options, width: now.width, height: now.height }, now.data, el);
    if (now.xRange) chart.setScale('x', now.xRange);
    chartRef.current = chart;
    return () => {
      chart.destroy();
      chartRef.current = null;
    };
  }, [options, ready]);

  // Setting data or a window draws; only a new redrawKey redraws alone: one draw per commit.
  const given = useRef({ data, xRange });
  useLayoutEffect(() => {
    void redrawKey;
    const chart = chartRef.current;
    if (!chart) return;
    const before = given.current;
    given.current = { data, xRange };
    if (before.data === data && before.xRange === xRange) {
      chart.redraw(false);
      return;
    }
    chart.batch(() => {
      chart.setData(data);
      if (xRange) chart.setScale('x', xRange);
    });
  }, [data, xRange, redrawKey]);

  useLayoutEffect(() => {
    const chart = chartRef.current;
    if (chart && width > 0 && (chart.width !== width || chart.height !== height))
      chart.setSize({ width, height });
  }, [width, height]);

  return <div className="uplot-island" ref={containerRef} />;
}
