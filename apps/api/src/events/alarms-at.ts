import { naturalCompare } from '@fabscope/contracts';
import type { CategoryName, Severity } from '@fabscope/topology';
import type { FabricEvent } from '../lib/fabric-event.ts';
import { type Alarm, CLEARED_KEPT, LEVEL } from './alarms.ts';

/** "32 host link directions over the congestion threshold" as alarmText writes it: count, kind, category. */
const SUMMARY = /(\d+) (ISL|host link) directions? over the (\w+) threshold/;
const CLEARED = /^alarm cleared: no (ISL|host link) direction over the (\w+) threshold/;
const CHANGED = /^alarm (raised|warning → \w+|error → \w+|critical → \w+|acknowledged by (.+?)): /;

const SEVERITIES: ReadonlySet<string> = new Set<Severity>(['warning', 'error', 'critical']);

type Kind = 'isl' | 'host';
const kindOf = (word: string): Kind => (word === 'ISL' ? 'isl' : 'host');

/** An alarm event read back: which alarm (category and link kind) and what happened to it. */
export type AlarmEventRead =
  | { what: 'raised' | 'severity'; key: string; count: number; severity: Severity }
  | { what: 'acknowledged'; key: string; by: string }
  | { what: 'cleared'; key: string };

/** What an `alarm` event of the log says (the texts events/alarms.ts writes); null for any other event. */
export function readAlarmEvent(event: FabricEvent): AlarmEventRead | null {
  if (event.kind !== 'alarm') return null;
  const cleared = CLEARED.exec(event.detail);
  if (cleared) return { what: 'cleared', key: `${cleared[2]}/${kindOf(cleared[1] as string)}` };
  const changed = CHANGED.exec(event.detail);
  const summary = SUMMARY.exec(event.detail);
  if (!changed || !summary) return null;
  const key = `${summary[3]}/${kindOf(summary[2] as string)}`;
  const verb = changed[1] as string;
  if (changed[2] !== undefined) return { what: 'acknowledged', key, by: changed[2] };
  const severity = SEVERITIES.has(event.severity ?? '') ? (event.severity as Severity) : 'warning';
  return { what: verb === 'raised' ? 'raised' : 'severity', key, count: Number(summary[1]), severity };
}

/**
 * The alarms as they stood at `atMs`, replayed from the event log (raised, severity changes, acknowledged, cleared):
 * the active ones worst first, then with `all` the cleared ones, newest first. Counts are those of each alarm's
 * last event by then (a count that moved without changing severity is not logged); members are not kept.
 */
export function alarmsAt(events: Iterable<FabricEvent>, atMs: number, all: boolean): Alarm[] {
  const active = new Map<string, Alarm>();
  const cleared: Alarm[] = [];
  for (const event of events) {
    if (event.timeMs > atMs) continue;
    const read = readAlarmEvent(event);
    if (!read) continue;
    const alarm = active.get(read.key);
    if (read.what === 'raised') {
      if (alarm) continue;
      active.set(read.key, pastAlarm(read.key, event.timeMs, read.count, read.severity));
    } else if (!alarm) {
      // Its raising was before the oldest event kept: nothing to say what it was.
    } else if (read.what === 'severity') {
      Object.assign(alarm, { severity: read.severity, count: read.count, updatedMs: event.timeMs });
    } else if (read.what === 'acknowledged') {
      alarm.acknowledged = { by: read.by, atMs: event.timeMs };
    } else {
      active.delete(read.key);
      Object.assign(alarm, { state: 'cleared', clearedMs: event.timeMs, updatedMs: event.timeMs });
      cleared.unshift(alarm);
    }
  }
  const shown = [...active.values()].sort(
    (a, b) => LEVEL[b.severity] - LEVEL[a.severity] || b.count - a.count || naturalCompare(a.id, b.id),
  );
  return all ? [...shown, ...cleared.slice(0, CLEARED_KEPT)] : shown;
}

function pastAlarm(key: string, timeMs: number, count: number, severity: Severity): Alarm {
  const [category, linkKind] = key.split('/') as [CategoryName, Kind];
  return {
    id: `${key}@${timeMs}`,
    category,
    linkKind,
    state: 'active',
    severity,
    count,
    members: [],
    unknown: null,
    raisedMs: timeMs,
    updatedMs: timeMs,
    clearedMs: null,
    acknowledged: null,
  };
}
