import type { EventKind, EventRecord, EventSeverity } from '@fabscope/contracts';
import { formatLinkIds } from './format.ts';
import { parseInstant } from './timeRange.ts';

/** How the charts and the event list name each kind of event. */
export const EVENT_KIND_LABELS: Record<EventKind, string> = {
  'adaptive-routing': 'AR',
  // Both the first read of the SM's tables and a re-route: "routing: routes from the subnet manager's …".
  routing: 'routing',
  traffic: 'traffic',
  fault: 'fault',
  'link-state': 'link',
  'counter-reset': 'counter reset',
  threshold: 'threshold',
  'collection-gap': 'no data',
  collection: 'collection',
  'subnet-manager': 'subnet manager',
  alert: 'alert',
  topology: 'topology',
  alarm: 'alarm',
};

/** Colour of each kind's marker on the charts. */
export const EVENT_KIND_COLORS: Record<EventKind, string> = {
  'adaptive-routing': '#58a6ff',
  routing: '#79c0ff',
  traffic: '#8b949e',
  fault: '#ff6b6b',
  'link-state': '#f0883e',
  'counter-reset': '#d2a8ff',
  threshold: '#e5534b',
  'collection-gap': '#768390',
  collection: '#768390',
  'subnet-manager': '#f0883e',
  alert: '#f85149',
  topology: '#a371f7',
  alarm: '#db6d28',
};

export function eventKindLabel(kind: string): string {
  return EVENT_KIND_LABELS[kind as EventKind] ?? kind;
}

/** A marker's short label ("AR off → on", "link edge1/3 ↔ core1/1 down"). */
export function eventLabel(event: EventRecord): string {
  const kind = eventKindLabel(event.kind);
  let detail = event.detail?.trim() ?? '';
  if (event.kind === 'adaptive-routing') {
    detail = detail
      .replace(/\benabled false → true\b/, 'off → on')
      .replace(/\benabled true → false\b/, 'on → off');
  }
  const subject = event.subject === 'fabric' ? '' : event.subject;
  // "alarm raised: …" under the kind "alarm" reads once, not "alarm alarm raised".
  if (subject === '' && detail.toLowerCase().startsWith(`${kind.toLowerCase()} `))
    return formatLinkIds(detail);
  return formatLinkIds([kind, subject, detail].filter((s) => s !== '').join(' '));
}

/** Every kind of event, in the order the kinds filter lists them. */
export const EVENT_KINDS = Object.keys(EVENT_KIND_LABELS) as EventKind[];

/** Marked whatever the filter, so threshold storms never bury them. */
export const ALWAYS_MARKED: ReadonlySet<EventKind> = new Set(['adaptive-routing', 'fault']);

/** What the events panel shows: a severity floor and the kinds chosen (null: every kind). */
export interface EventFilter {
  minSeverity: EventSeverity;
  kinds: readonly EventKind[] | null;
}

/** `?events=threshold,fault`: the kinds chosen; null (every kind) when absent or naming none. */
export function parseEventKinds(raw: string | null): readonly EventKind[] | null {
  if (raw === null) return null;
  const chosen = new Set(raw.split(','));
  // `?events=none`: the user unticked every kind.
  if (raw === 'none') return [];
  const kinds = EVENT_KINDS.filter((k) => chosen.has(k));
  return kinds.length === 0 ? null : kinds;
}

export function serializeEventKinds(kinds: readonly EventKind[] | null): string | null {
  if (kinds === null || kinds.length === EVENT_KINDS.length) return null;
  if (kinds.length === 0) return 'none';
  return EVENT_KINDS.filter((k) => kinds.includes(k)).join(',');
}

export const SEVERITIES: readonly EventSeverity[] = ['info', 'warning', 'error', 'critical'];

const severityRank = (s: string | undefined) =>
  Math.max(0, SEVERITIES.indexOf((s ?? 'info') as EventSeverity));

/** Events at or above `min` severity (events without one are info), newest first. */
export function eventsAtLeast(events: readonly EventRecord[], min: EventSeverity): EventRecord[] {
  const floor = severityRank(min);
  return events
    .filter((e) => severityRank(e.severity) >= floor)
    .sort((a, b) => (a.time < b.time ? 1 : a.time > b.time ? -1 : 0));
}

export function parseSeverity(value: string | null): EventSeverity {
  return SEVERITIES.includes(value as EventSeverity) ? (value as EventSeverity) : 'warning';
}

/** Whether the filter lets an event through: severe enough and of a kind chosen. */
export function passesFilter(event: EventRecord, filter: EventFilter): boolean {
  return (
    severityRank(event.severity) >= severityRank(filter.minSeverity) &&
    (filter.kinds === null || filter.kinds.includes(event.kind))
  );
}

/** A mark on a chart: an event's time (Unix seconds), its label, kind and placement priority. */
export interface EventMark {
  x: number;
  label: string;
  kind: EventKind;
  /** Labelled first when room runs out: the always-marked kinds, then by severity. */
  priority: number;
}

/** More threshold crossings than this in a window are drawn as lines without labels: their alarm names them. */
export const LABELLED_CROSSINGS = 20;

/**
 * The chart's marks, oldest first: filtered events plus AR changes and faults; unreadable times dropped. Labels go
 * to AR changes and faults first, then alarms, then by severity; on a big fabric's storm of per-link crossings only
 * the alarm is labelled (priority −1: a line, no label).
 */
export function chartMarks(events: readonly EventRecord[], filter: EventFilter): EventMark[] {
  const shown = events
    .filter((e) => ALWAYS_MARKED.has(e.kind) || passesFilter(e, filter))
    .map((e) => ({ e, ms: parseInstant(e.time) }))
    .filter((r): r is { e: EventRecord; ms: number } => r.ms !== null)
    .sort((a, b) => a.ms - b.ms);
  const storm = shown.filter(({ e }) => e.kind === 'threshold').length > LABELLED_CROSSINGS;
  return shown.map(({ e, ms }) => ({
    x: ms / 1000,
    label: eventLabel(e),
    kind: e.kind,
    priority: ALWAYS_MARKED.has(e.kind)
      ? SEVERITIES.length + 1
      : e.kind === 'alarm'
        ? SEVERITIES.length
        : storm && e.kind === 'threshold'
          ? -1
          : severityRank(e.severity),
  }));
}

/** The newest event of `kind` (ms), e.g. the last adaptive-routing change; null when none. */
export function lastChangeMs(events: readonly EventRecord[], kind: EventKind): number | null {
  let newest: number | null = null;
  for (const e of events) {
    if (e.kind !== kind) continue;
    const ms = parseInstant(e.time);
    if (ms !== null && (newest === null || ms > newest)) newest = ms;
  }
  return newest;
}
