import type { EventList, LinkHistory, SummaryHistory } from '@fabscope/contracts';
import { memo, useMemo, useState } from 'react';
import { ErrorNote } from '../../components/ErrorNote.tsx';
import { chartMarks, type EventFilter } from '../../lib/events.ts';
import { formatClock, formatDirection } from '../../lib/format.ts';
import { formatInstant, type TimeWindow } from '../../lib/timeRange.ts';
import { useRateFormat } from '../../state/preferences.ts';
import { type Remote, useApiQuery } from '../../state/useApiQuery.ts';
import { type TailPoint, withTail } from './historyTail.ts';
import { LINK_MEASURES, type LinkMeasure, linkChart } from './linkSeries.ts';
import { TimeSeriesChart } from './TimeSeriesChart.tsx';
import { type ChartColumns, columnsWithin, describeSeries, toChartColumns } from './timeSeries.ts';
import { MOVING_WINDOW } from './useHistoryWindow.ts';

interface HistoryPanelProps {
  /** The window drawn (already aligned to whole steps). */
  window: TimeWindow;
  /** The total's question to the store (useHistoryWindow): `window`, or behind it while it follows now. */
  asked: TimeWindow;
  /** The stream's newest totals, drawn after the store's answer (historyTail.ts). */
  tail: readonly TailPoint[];
  step: number;
  atMs: number | null;
  /** Link directions whose history is open. */
  links: readonly string[];
  /** The window's events (useEvents), and the events panel's filter: the chart marks what it lets through, AR changes and faults always. */
  events: Remote<EventList>;
  eventFilter: EventFilter;
  onPick: (ms: number) => void;
  onSelectWindow: (window: TimeWindow) => void;
  onCloseLink: (id: string) => void;
  onWidth: (width: number) => void;
  nowMs: number;
}

const TOTAL_COLOR = '#3fb950';
const LINK_COLORS = ['#58a6ff', '#f0883e', '#d2a8ff', '#ff7b72', '#56d4dd', '#e3b341'];
const NO_POINTS: readonly TailPoint[] = [];
const NO_SERIES: LinkHistory['series'] = [];
// Every line at first: a link at 99 % with wait or errors and one without must not look alike.
const DEFAULT_MEASURES: ReadonlySet<LinkMeasure> = new Set(['utilization', 'wait', 'errors']);

/** Host transmit total over the window with its events, and the history of the opened link directions. */
export const HistoryPanel = memo(function HistoryPanel({
  window,
  asked,
  tail,
  step,
  atMs,
  links,
  events,
  eventFilter,
  onPick,
  onSelectWindow,
  onCloseLink,
  onWidth,
  nowMs,
}: HistoryPanelProps) {
  const rates = useRateFormat();
  const totalQ = { from: formatInstant(asked.fromMs), to: formatInstant(asked.toMs), step };
  const summary = useApiQuery<SummaryHistory>(
    ['summary-history', totalQ.from, totalQ.to, step],
    (api, signal) => api.getSummaryHistory(totalQ, signal),
    MOVING_WINDOW,
  );
  const q = { from: formatInstant(window.fromMs), to: formatInstant(window.toMs), step };
  const linkHistory = useApiQuery<LinkHistory>(
    ['links-history', links.join(','), q.from, q.to, step],
    links.length > 0 ? (api, signal) => api.getLinksHistory(links, q, signal) : null,
    MOVING_WINDOW,
  );

  const totalColumns = useMemo((): ChartColumns => {
    const [xs, ys = []] = toChartColumns(summary.status === 'ready' ? summary.data.points : [], [
      (p) => p.hostTransmitBytesPerSecond,
    ]);
    // Only within the window drawn: the question may start before it.
    const [tx, ty] = withTail(xs, ys, summary.status === 'ready' ? tail : NO_POINTS, step);
    return columnsWithin(tx, ty, window);
  }, [summary, tail, step, window]);
  const eventList = events.status === 'ready' ? events.data.events : null;
  const marks = useMemo(() => chartMarks(eventList ?? [], eventFilter), [eventList, eventFilter]);
  const described = describeSeries(totalColumns[1] ?? []);

  const linkSeries = linkHistory.status === 'ready' ? linkHistory.data.series : NO_SERIES;
  const [measures, setMeasures] = useState<ReadonlySet<LinkMeasure>>(DEFAULT_MEASURES);
  const linkLines = useMemo(() => linkChart(linkSeries, measures, LINK_COLORS), [linkSeries, measures]);
  const toggleMeasure = (measure: LinkMeasure, on: boolean) => {
    const next = new Set(measures);
    if (on) next.add(measure);
    else next.delete(measure);
    setMeasures(next);
  };
  const totalSpecs = useMemo(() => [{ label: 'Host transmit total', color: TOTAL_COLOR }], []);
  const [showEvents, setShowEvents] = useState(true);
  const shared = { window, marks, instantMs: atMs, onPick, onSelectWindow };

  return (
    <div className="history">
      <figure className="history-figure" aria-labelledby="history-total-caption">
        <TimeSeriesChart
          {...shared}
          columns={totalColumns}
          series={totalSpecs}
          unit="bytesPerSecond"
          onWidth={onWidth}
        />
        <figcaption
          id="history-total-caption"
          className="history-caption"
          data-testid="history-total-caption"
        >
          Host transmit total, {formatClock(window.fromMs, nowMs)} – {formatClock(window.toMs, nowMs)}, one
          point per {step} s{summary.status === 'loading' && ' — loading…'}
          {described
            ? `: from ${rates.rate(described.first)} to ${rates.rate(described.last)} (lowest ${rates.rate(described.min)}, highest ${rates.rate(described.max)})`
            : summary.status === 'ready' && ': no samples in this window'}
          .
        </figcaption>
      </figure>
      {summary.status === 'error' && <ErrorNote message={`History: ${summary.message}`} />}

      <div className="events">
        <button
          type="button"
          className="btn btn-small"
          aria-expanded={showEvents}
          onClick={() => setShowEvents(!showEvents)}
        >
          Events ({eventList ? marks.length : '…'})
        </button>
        {events.status === 'error' && <ErrorNote message={`Events: ${events.message}`} />}
        {showEvents && eventList && (
          <ol className="event-list" aria-label="Events in this window">
            {marks.length === 0 && <li className="muted">No events of the kinds chosen in this window.</li>}
            {marks
              .slice(-20)
              .reverse()
              .map((e) => (
                <li key={`${e.x}-${e.label}`} data-kind={e.kind}>
                  <button
                    type="button"
                    className="link-button"
                    onClick={() => onPick(e.x * 1000)}
                    title="View this instant"
                  >
                    {formatClock(e.x * 1000, nowMs)}
                  </button>{' '}
                  <span className={`event-kind event-${e.kind}`}>{e.label}</span>
                </li>
              ))}
          </ol>
        )}
      </div>

      {links.length > 0 && (
        <section className="link-history" aria-label="Link history">
          <h3>
            Link utilization, wait and errors{' '}
            <span className="muted small">
              (opened from the drawing, heatmap or ranking; up to 6 directions)
            </span>
          </h3>
          <ul className="link-chips">
            {links.map((id, i) => (
              <li key={id} className="chip" style={{ borderColor: LINK_COLORS[i % LINK_COLORS.length] }}>
                <span className="mono">{formatDirection(id)}</span>
                <button
                  type="button"
                  className="chip-close"
                  aria-label={`Close history of ${formatDirection(id)}`}
                  onClick={() => onCloseLink(id)}
                >
                  ×
                </button>
              </li>
            ))}
          </ul>
          <fieldset className="link-measures">
            <legend className="visually-hidden">Lines drawn</legend>
            {LINK_MEASURES.map(({ measure, label, note }) => (
              <label key={measure}>
                <input
                  type="checkbox"
                  checked={measures.has(measure)}
                  onChange={(e) => toggleMeasure(measure, e.target.checked)}
                />{' '}
                {label}
                {note && <span className="muted small"> ({note})</span>}
              </label>
            ))}
          </fieldset>
          {linkHistory.status === 'error' ? (
            <ErrorNote message={`Link history: ${linkHistory.message}`} />
          ) : (
            <TimeSeriesChart
              {...shared}
              columns={linkLines.columns}
              series={linkLines.series}
              unit="fraction"
              height={160}
            />
          )}
        </section>
      )}
    </div>
  );
});
