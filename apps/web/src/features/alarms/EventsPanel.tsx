import type { EventKind, EventList, EventSeverity } from '@fabscope/contracts';
import { memo } from 'react';
import { ErrorNote } from '../../components/ErrorNote.tsx';
import { SelectField } from '../../components/Field.tsx';
import {
  ALWAYS_MARKED,
  EVENT_KINDS,
  type EventFilter,
  eventKindLabel,
  eventsAtLeast,
  passesFilter,
  SEVERITIES,
} from '../../lib/events.ts';
import { formatDateTimeField, formatLinkIds } from '../../lib/format.ts';
import type { Remote } from '../../state/useApiQuery.ts';

interface EventsPanelProps {
  events: Remote<EventList>;
  /** Severity floor and kinds: the list shows what passes, the history chart marks it. */
  filter: EventFilter;
  onFilterChange: (filter: EventFilter) => void;
  /** Opens a link direction's history (subjects that are link directions become buttons). */
  onOpenHistory?: (id: string) => void;
  limit?: number;
}

const SEVERITY_LABEL: Record<EventSeverity, string> = {
  info: 'everything',
  warning: 'warnings and worse',
  error: 'errors and worse',
  critical: 'critical only',
};

/** The shown window's events, newest first, filtered by severity and kind. */
export const EventsPanel = memo(function EventsPanel({
  events,
  filter,
  onFilterChange,
  onOpenHistory,
  limit = 50,
}: EventsPanelProps) {
  if (events.status === 'error') return <ErrorNote message={`Events: ${events.message}`} />;
  const rows =
    events.status === 'ready'
      ? eventsAtLeast(events.data.events, filter.minSeverity)
          .filter((e) => passesFilter(e, filter))
          .slice(0, limit)
      : [];
  // Events have no id: time, kind, subject and detail, numbered when the same happens twice at once.
  const seen = new Map<string, number>();
  const keys = rows.map((e) => {
    const base = `${e.time}|${e.kind}|${e.subject}|${e.detail}`;
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    return `${base}|${n}`;
  });
  return (
    <div className="events-panel">
      <div className="table-controls">
        <SelectField
          label="Severity"
          value={filter.minSeverity}
          values={SEVERITIES}
          optionLabel={(s) => SEVERITY_LABEL[s]}
          onChange={(s) => onFilterChange({ ...filter, minSeverity: s as EventSeverity })}
        />
        <KindsFilter kinds={filter.kinds} onChange={(kinds) => onFilterChange({ ...filter, kinds })} />
        {events.status === 'loading' && <span className="muted">loading…</span>}
      </div>
      {events.status === 'ready' && rows.length === 0 && (
        <p className="placeholder">No events of the kinds chosen at this severity in the window.</p>
      )}
      <ul className="fabric-events" aria-label="Fabric events">
        {rows.map((e, i) => {
          const severity = e.severity ?? 'info';
          const direction = e.subject.includes('->');
          return (
            <li
              key={keys[i]}
              className={`fabric-event severity-${severity}`}
              data-kind={e.kind}
              data-severity={severity}
              data-subject={e.subject}
            >
              <span className={`chip chip-severity-${severity}`}>{severity}</span>
              <time className="muted small" dateTime={e.time}>
                {Number.isNaN(Date.parse(e.time)) ? e.time : formatDateTimeField(Date.parse(e.time))}
              </time>{' '}
              {/* "alarm raised: …" under the kind "alarm" reads once, not "alarm alarm raised". */}
              {!saysKind(e) && <span className="event-kind">{eventKindLabel(e.kind)}</span>}{' '}
              {direction && onOpenHistory ? (
                <button
                  type="button"
                  className="link-button mono"
                  title="Open its history"
                  onClick={() => onOpenHistory(e.subject)}
                >
                  {formatLinkIds(e.subject)}
                </button>
              ) : (
                <span className="mono">{formatLinkIds(e.subject)}</span>
              )}{' '}
              <span className="event-detail">{formatLinkIds(e.detail)}</span>
            </li>
          );
        })}
      </ul>
    </div>
  );
});

/** Whether an event's detail starts with its kind's word already. */
const saysKind = (e: { kind: EventKind; detail: string }) =>
  e.detail.toLowerCase().startsWith(`${eventKindLabel(e.kind).toLowerCase()} `);

/** The kinds shown, as checkboxes in a disclosure ("Kinds: all", "Kinds: 3 of 11"). */
function KindsFilter({
  kinds,
  onChange,
}: {
  kinds: readonly EventKind[] | null;
  onChange: (kinds: readonly EventKind[] | null) => void;
}) {
  const chosen = new Set(kinds ?? EVENT_KINDS);
  const toggle = (kind: EventKind) => {
    const next = EVENT_KINDS.filter((k) => (k === kind ? !chosen.has(k) : chosen.has(k)));
    onChange(next.length === EVENT_KINDS.length ? null : next);
  };
  return (
    <details className="kinds-filter">
      <summary className="kinds-filter-summary">
        Kinds: {kinds === null ? 'all' : `${kinds.length} of ${EVENT_KINDS.length}`}
      </summary>
      <fieldset className="kinds-filter-body">
        <legend>Event kinds</legend>
        {EVENT_KINDS.map((k) => (
          <label key={k}>
            <input type="checkbox" checked={chosen.has(k)} onChange={() => toggle(k)} />
            {eventKindLabel(k)}
          </label>
        ))}
        <button
          type="button"
          className="btn btn-small"
          disabled={kinds === null}
          onClick={() => onChange(null)}
        >
          every kind
        </button>
        <p className="hint">
          The history chart marks these; {[...ALWAYS_MARKED].map(eventKindLabel).join(' and ')} changes
          always.
        </p>
      </fieldset>
    </details>
  );
}
