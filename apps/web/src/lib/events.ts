import type { FabricEvent, FabricEventKind } from '../api/types.ts';
import { formatLinkIds } from './format.ts';
import { parseInstant } from './timeRange.ts';

/** How the charts and the event list name each kind of event. */
export const EVENT_KIND_LABELS: Record<FabricEventKind, string> = {
  'adaptive-routing': 'AR',
  // Both the first read of the SM's tables and a re-route: "routing: routes from the subnet manager's …".
  routing: 'routing',
  traffic: 'traffic',
  fault: 'fault',
  'link-state': 'link',
  'counter-reset': 'counter reset',
  threshold: 'threshold',
  'collection-gap': 'no data',
  alert: 'alert',
  topology: 'topology',
  alarm: 'alarm',
};

/** Colour of each kind's marker on the charts. */
export const EVENT_KIND_COLORS: Record<FabricEventKind, string> = {
  'adaptive-routing': '#58a6ff',
  routing: '#79c0ff',
  traffic: '#8b949e',
  fault: '#ff6b6b',
  'link-state': '#f0883e',
  'counter-reset': '#d2a8ff',
  threshold: '#e5534b',
  'collection-gap': '#768390',
  alert: '#f85149',
  topology: '#a371f7',
  alarm: '#db6d28',
};

export function eventKindLabel(kind: string): string {
  return EVENT_KIND_LABELS[kind as FabricEventKind] ?? kind;
}

/**
 * A short label for a marker: "AR off → on, threshold 0 → 7", "traffic start pairs: 2 flows
 * running", "link edge1/3 ↔ core1/1 down". The API writes changes as "field old → new"; link
 * directions and cables are written as everywhere on the page (formatLinkIds).
 */
export function eventLabel(event: FabricEvent): string {
  const kind = eventKindLabel(event.kind);
  let detail = event.detail?.trim() ?? '';
  if (event.kind === 'adaptive-routing') {
    detail = detail
      .replace(/\benabled false → true\b/, 'off → on')
      .replace(/\benabled true → false\b/, 'on → off');
  }
  const subject = event.subject === 'fabric' ? '' : event.subject;
  return formatLinkIds([kind, subject, detail].filter((s) => s !== '').join(' '));
}

/** Events with a readable time, oldest first, as chart annotations (x in Unix seconds). */
export function eventAnnotations(
  events: readonly FabricEvent[],
): { x: number; label: string; kind: string }[] {
  return events
    .map((e) => ({ ms: parseInstant(e.time), label: eventLabel(e), kind: e.kind }))
    .filter((e): e is { ms: number; label: string; kind: FabricEvent['kind'] } => e.ms !== null)
    .sort((a, b) => a.ms - b.ms)
    .map((e) => ({ x: e.ms / 1000, label: e.label, kind: e.kind }));
}
