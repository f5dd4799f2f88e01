import { naturalCompare } from '@fabscope/contracts';
import type { CategoryName, Severity } from '@fabscope/topology';
import { clockTime } from './collection-watch.ts';
import type { EventLog } from './event-log.ts';

/** Link directions named in an alarm (the worst first); the rest are counted. */
export const ALARM_MEMBERS_LISTED = 20;
/** Cleared alarms kept for `/alarms?state=all`, newest first. */
export const CLEARED_KEPT = 100;

/** A severity's level (1 warning … 3 critical), and back. */
export const LEVEL: Record<Severity, number> = { warning: 1, error: 2, critical: 3 };
export const SEVERITY_OF_LEVEL: Record<number, Severity> = { 1: 'warning', 2: 'error', 3: 'critical' };

/** One direction over a category's threshold, as the health watch keeps it. */
export interface AlarmMember {
  id: string;
  kind: 'isl' | 'host';
  category: CategoryName;
  /** 1 warning, 2 error, 3 critical. */
  level: number;
  /** The category's value, × its threshold (the last known one while unknown). */
  value: number;
  /** Since when its value is unknown (the alarm stays, and says so); null while known. */
  unknownSinceMs: number | null;
  unknownReason?: string | undefined;
}

/** An alarm's members whose value is unknown now: how many, since when (the earliest), and why. */
export interface AlarmUnknown {
  count: number;
  sinceMs: number;
  reason: string;
}

export interface Alarm {
  /** Stable while the condition lasts: `<category>/<isl|host>@<raised ms>`. */
  id: string;
  category: CategoryName;
  linkKind: 'isl' | 'host';
  state: 'active' | 'cleared';
  /** The worst member's. */
  severity: Severity;
  count: number;
  /** The worst ALARM_MEMBERS_LISTED members. */
  members: {
    id: string;
    value: number;
    severity: Severity;
    unknownSinceMs?: number;
    unknownReason?: string;
  }[];
  /** Members whose value became unknown: the alarm stays raised and says so; null when every value is known. */
  unknown: AlarmUnknown | null;
  raisedMs: number;
  updatedMs: number;
  clearedMs: number | null;
  acknowledged: { by: string; atMs: number } | null;
}

const nounOf = (kind: 'isl' | 'host', count: number) =>
  kind === 'isl' ? `ISL direction${count === 1 ? '' : 's'}` : `host link direction${count === 1 ? '' : 's'}`;

/** "32 host link directions over the congestion threshold" (and "; 2 unknown since 12:04:10: <reason>"). */
export function alarmText(
  alarm: Pick<Alarm, 'count' | 'linkKind' | 'category'> & { unknown?: AlarmUnknown | null },
): string {
  const text = `${alarm.count} ${nounOf(alarm.linkKind, alarm.count)} over the ${alarm.category} threshold`;
  return alarm.unknown ? `${text}; ${unknownText(alarm.unknown)}` : text;
}

function unknownText(unknown: AlarmUnknown): string {
  return `${unknown.count} unknown since ${clockTime(unknown.sinceMs)}: ${unknown.reason}`;
}

/** The members whose value is unknown, as one note: the earliest since, the first reason. */
function unknownOf(members: readonly AlarmMember[]): AlarmUnknown | null {
  let unknown: AlarmUnknown | null = null;
  for (const m of members) {
    if (m.unknownSinceMs === null) continue;
    if (unknown === null)
      unknown = { count: 0, sinceMs: m.unknownSinceMs, reason: m.unknownReason ?? 'unknown' };
    unknown.count++;
    if (m.unknownSinceMs < unknown.sinceMs) {
      unknown.sinceMs = m.unknownSinceMs;
      unknown.reason = m.unknownReason ?? 'unknown';
    }
  }
  return unknown;
}

/**
 * Alarms with a lifecycle, as UFM's: a PM category's over-threshold directions, per category and link kind, are one
 * *active* alarm while any is over (count, worst severity, members updated each tick), *cleared* when none; acks stay.
 */
export class Alarms {
  private readonly active = new Map<string, Alarm>();
  private readonly cleared: Alarm[] = [];

  constructor(private readonly log?: EventLog) {}

  /** The members over threshold now (every one, each tick). */
  update(timeMs: number, members: Iterable<AlarmMember>): void {
    const groups = new Map<string, AlarmMember[]>();
    for (const m of members) {
      const key = `${m.category}/${m.kind}`;
      const list = groups.get(key);
      if (list) list.push(m);
      else groups.set(key, [m]);
    }
    for (const [key, list] of groups) {
      list.sort((a, b) => b.level - a.level || b.value - a.value || naturalCompare(a.id, b.id));
      const worst = list[0] as AlarmMember;
      let alarm = this.active.get(key);
      const raised = alarm === undefined;
      if (!alarm) {
        alarm = {
          id: `${key}@${timeMs}`,
          category: worst.category,
          linkKind: worst.kind,
          state: 'active',
          severity: 'warning',
          count: 0,
          members: [],
          unknown: null,
          raisedMs: timeMs,
          updatedMs: timeMs,
          clearedMs: null,
          acknowledged: null,
        };
        this.active.set(key, alarm);
      }
      const severity = SEVERITY_OF_LEVEL[worst.level] ?? 'warning';
      const unknown = unknownOf(list);
      if (
        alarm.count !== list.length ||
        alarm.severity !== severity ||
        alarm.unknown?.count !== unknown?.count
      )
        alarm.updatedMs = timeMs;
      const before = alarm.severity;
      alarm.severity = severity;
      alarm.count = list.length;
      alarm.unknown = unknown;
      alarm.members = list.slice(0, ALARM_MEMBERS_LISTED).map((m) => ({
        id: m.id,
        value: m.value,
        severity: SEVERITY_OF_LEVEL[m.level] ?? 'warning',
        ...(m.unknownSinceMs === null
          ? {}
          : { unknownSinceMs: m.unknownSinceMs, unknownReason: m.unknownReason ?? 'unknown' }),
      }));
      // Values gone unknown keep it raised; its summary says since when and why (the stall has its own event).
      if (raised) this.note(timeMs, severity, `alarm raised: ${alarmText(alarm)}`);
      // The events say each severity the list shows: a change is one event, old → new.
      else if (before !== severity)
        this.note(timeMs, severity, `alarm ${before} → ${severity}: ${alarmText(alarm)}`);
    }
    for (const [key, alarm] of this.active) {
      if (groups.has(key)) continue;
      this.active.delete(key);
      alarm.state = 'cleared';
      alarm.clearedMs = timeMs;
      alarm.updatedMs = timeMs;
      this.cleared.unshift(alarm);
      this.cleared.length = Math.min(this.cleared.length, CLEARED_KEPT);
      this.note(
        timeMs,
        'info',
        `alarm cleared: no ${alarm.linkKind === 'isl' ? 'ISL' : 'host link'} direction over the ${alarm.category} threshold (raised ${new Date(alarm.raisedMs).toISOString().slice(0, 19).replace('T', ' ')} UTC)`,
      );
    }
  }

  /** Active alarms, worst first; with `all`, the cleared ones kept after them, newest first. */
  list(all: boolean): Alarm[] {
    const active = [...this.active.values()].sort(
      (a, b) => LEVEL[b.severity] - LEVEL[a.severity] || b.count - a.count || naturalCompare(a.id, b.id),
    );
    return all ? [...active, ...this.cleared] : active;
  }

  /** Records who acknowledged an alarm (active or cleared); null when there is no such alarm. */
  acknowledge(id: string, by: string, timeMs: number): Alarm | null {
    const alarm = [...this.active.values(), ...this.cleared].find((a) => a.id === id);
    if (!alarm) return null;
    alarm.acknowledged = { by, atMs: timeMs };
    this.note(timeMs, 'info', `alarm acknowledged by ${by}: ${alarmText(alarm)}`);
    return alarm;
  }

  private note(timeMs: number, severity: Severity | 'info', detail: string): void {
    this.log?.append({ timeMs, kind: 'alarm', subject: 'fabric', severity, detail });
  }
}
