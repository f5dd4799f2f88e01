import { memo } from 'react';
import { useApiQuery } from '../../state/useApiQuery.ts';
import { ALARMS_ANCHOR, alarmsQuery } from '../alarms/AlarmsList.tsx';
import { alarmCounts, alarmCountsText, SEVERITIES_WORST_FIRST } from '../alarms/alarmState.ts';

/** Brings the alarms into view and gives them the focus: one click from anywhere on the page. */
function showAlarms() {
  const section = document.getElementById(ALARMS_ANCHOR);
  section?.scrollIntoView({ block: 'start', behavior: 'smooth' });
  section?.focus({ preventScroll: true });
}

/** The active alarms by severity, as of the instant viewed (the same question as the list's: one answer). */
export const AlarmCounts = memo(function AlarmCounts({ atMs }: { atMs: number | null }) {
  const question = alarmsQuery(false, atMs);
  const alarms = useApiQuery(question.key, question.load, {
    keepPrevious: true,
    ...(atMs === null ? { live: true as const } : {}),
  });
  if (alarms.status !== 'ready') return null;
  const counts = alarmCounts(alarms.data.alarms);
  const worst = SEVERITIES_WORST_FIRST.find((s) => counts.open[s] > 0) ?? null;
  return (
    <button
      type="button"
      className={`alarm-counts ${worst ? `alarm-counts-${worst}` : ''}`}
      data-testid="alarm-counts"
      onClick={showAlarms}
      title="Show the alarms"
    >
      <span className="alarm-counts-label">{atMs === null ? 'alarms' : 'alarms then'}</span>{' '}
      {SEVERITIES_WORST_FIRST.filter((s) => counts.open[s] > 0).map((s) => (
        <span key={s} className={`chip chip-severity-${s}`}>
          {counts.open[s]} {s}
        </span>
      ))}
      {counts.acknowledged > 0 && (
        <span className="chip chip-severity-acknowledged">{counts.acknowledged} acknowledged</span>
      )}
      {worst === null && counts.acknowledged === 0 && (
        <span className="muted">{alarmCountsText(counts)}</span>
      )}
    </button>
  );
});
