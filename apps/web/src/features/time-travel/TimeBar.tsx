import type { HistoryKept } from '@fabscope/contracts';
import { memo, useId, useState } from 'react';
import { formatAge, formatClock, formatTimeZone } from '../../lib/format.ts';
import type { TimeRange, TimeWindow } from '../../lib/timeRange.ts';
import { type ApiLoad, useApiQuery } from '../../state/useApiQuery.ts';
import { DateTimeField } from './DateTimeField.tsx';
import { presetsOffered } from './presetsOffered.ts';

const loadKept: ApiLoad<HistoryKept> = (api, signal) => api.getHistoryKept(signal);
/** What the store holds changes with its capacity only: asked again now and then for the oldest instant. */
const KEPT_FRESH_MS = 60_000;

interface TimeBarProps {
  range: TimeRange;
  onRangeChange: (range: TimeRange) => void;
  /** The instant shown (ms), or null when live. */
  atMs: number | null;
  onLive: () => void;
  /** The chart's current window, the starting point of a custom range (read when one is opened). */
  windowNow: () => TimeWindow;
  bookmarkMs: number | null;
  /** A past instant is on its way (the previous stays on screen meanwhile). */
  loading: boolean;
  error: string | null;
  nowMs: number;
}

/** Live, the chart's range and opatop's keys; a bar says which past instant is shown. */
export const TimeBar = memo(function TimeBar({
  range,
  onRangeChange,
  atMs,
  onLive,
  windowNow,
  bookmarkMs,
  loading,
  error,
  nowMs,
}: TimeBarProps) {
  const [editing, setEditing] = useState(false);
  const [customFrom, setFrom] = useState<number | null>(null);
  const [customTo, setTo] = useState<number | null>(null);
  const fromId = useId();
  const toId = useId();
  const live = atMs === null;
  const following = live && range.kind === 'preset';
  const zone = formatTimeZone();
  const customValid = customFrom !== null && customTo !== null && customTo > customFrom;
  const kept = useApiQuery(['history-kept'], loadKept, { staleTimeMs: KEPT_FRESH_MS });
  const presets = presetsOffered(kept.status === 'ready' ? kept.data : null, range);

  const openCustom = () => {
    const chart = windowNow();
    setFrom(chart.fromMs);
    setTo(chart.toMs);
    setEditing(true);
  };

  return (
    <div className="time-bar-wrap">
      <div className="time-controls">
        <fieldset className="segmented" aria-label="Time range">
          <button
            type="button"
            className={`seg ${following ? 'seg-on seg-live' : ''}`}
            aria-pressed={following}
            title="Live numbers and a chart that follows now"
            onClick={onLive}
          >
            ● Live
          </button>
          {presets.map((p) => {
            const on = range.kind === 'preset' && range.key === p.key;
            return (
              <button
                key={p.key}
                type="button"
                className={`seg ${on ? 'seg-on' : ''}`}
                aria-pressed={on}
                onClick={() => {
                  setEditing(false);
                  onRangeChange({ kind: 'preset', key: p.key, seconds: p.seconds });
                }}
              >
                {p.label}
              </button>
            );
          })}
          <button
            type="button"
            className={`seg ${range.kind === 'custom' ? 'seg-on' : ''}`}
            aria-pressed={range.kind === 'custom'}
            onClick={openCustom}
          >
            Custom…
          </button>
        </fieldset>
        {editing && (
          <form
            className="custom-range"
            onSubmit={(e) => {
              e.preventDefault();
              if (customValid && customFrom !== null && customTo !== null) {
                onRangeChange({ kind: 'custom', fromMs: customFrom, toMs: customTo });
                setEditing(false);
              }
            }}
          >
            <label htmlFor={fromId}>From</label>
            <DateTimeField id={fromId} ms={customFrom} onChange={setFrom} />
            <label htmlFor={toId}>to</label>
            <DateTimeField id={toId} ms={customTo} onChange={setTo} />
            <button type="submit" className="btn btn-small btn-primary" disabled={!customValid}>
              Apply
            </button>
            <button type="button" className="btn btn-small" onClick={() => setEditing(false)}>
              Cancel
            </button>
          </form>
        )}
        {range.kind === 'custom' && !editing && (
          <span className="muted small">
            {formatClock(range.fromMs, nowMs)} – {formatClock(range.toMs, nowMs)}
          </span>
        )}
        <span
          className="time-zone muted small"
          data-testid="time-zone"
          title="Every time on the page is in this zone, on a 24-hour clock"
        >
          times in {zone}
        </span>
        <span className="key-hint">
          keys: <kbd>r</kbd>/<kbd>R</kbd> back 1/5 ticks · <kbd>f</kbd>/<kbd>F</kbd> forward · <kbd>L</kbd>{' '}
          live · <kbd>B</kbd> bookmark · <kbd>b</kbd> recall
          {bookmarkMs !== null && ` (${formatClock(bookmarkMs, nowMs)})`} · click the chart to view an
          instant, drag to zoom
        </span>
      </div>
      {!live && (
        <div className="viewing-bar" role="status" aria-label="Viewing the past">
          <strong>
            Viewing <time dateTime={new Date(atMs).toISOString()}>{formatClock(atMs, nowMs)}</time>
          </strong>
          <span className="viewing-ago">{formatAge(Math.max(0, (nowMs - atMs) / 1000))} before live</span>
          <span className="viewing-note">
            {loading
              ? ' — loading…'
              : error
                ? ` — ${error}`
                : ' — every panel shows this instant; the live stream continues in the background'}
          </span>
          <button type="button" className="btn btn-small btn-primary" onClick={onLive}>
            back to live
          </button>
        </div>
      )}
    </div>
  );
});
