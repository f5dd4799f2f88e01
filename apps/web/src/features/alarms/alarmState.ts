import type { Alarm } from '@fabscope/contracts';

type Severity = Alarm['severity'];

/** Worst first: the header's and the list's order of severities. */
export const SEVERITIES_WORST_FIRST: readonly Severity[] = ['critical', 'error', 'warning'];

/** Active alarms by severity, those still to acknowledge apart from those acknowledged (not red any more). */
export interface AlarmCounts {
  open: Record<Severity, number>;
  acknowledged: number;
  cleared: number;
}

export function alarmCounts(alarms: readonly Alarm[]): AlarmCounts {
  const counts: AlarmCounts = { open: { critical: 0, error: 0, warning: 0 }, acknowledged: 0, cleared: 0 };
  for (const a of alarms) {
    if (a.state === 'cleared') counts.cleared++;
    else if (a.acknowledged) counts.acknowledged++;
    else counts.open[a.severity]++;
  }
  return counts;
}

/** "2 critical · 1 warning" (then "· 1 acknowledged"); "none" when no alarm is active. */
export function alarmCountsText(counts: AlarmCounts): string {
  const parts = SEVERITIES_WORST_FIRST.filter((s) => counts.open[s] > 0).map((s) => `${counts.open[s]} ${s}`);
  if (counts.acknowledged > 0) parts.push(`${counts.acknowledged} acknowledged`);
  return parts.length === 0 ? 'none' : parts.join(' · ');
}

/** How an alarm is drawn: its chip's words and colour class; red only while active and not acknowledged. */
export function alarmLook(alarm: Alarm): {
  chip: string;
  tone: string;
  state: 'open' | 'acknowledged' | 'cleared';
} {
  if (alarm.state === 'cleared')
    return { chip: `${alarm.severity} · cleared`, tone: 'info', state: 'cleared' };
  if (alarm.acknowledged)
    return { chip: `${alarm.severity} · acknowledged`, tone: 'acknowledged', state: 'acknowledged' };
  return { chip: alarm.severity, tone: alarm.severity, state: 'open' };
}
