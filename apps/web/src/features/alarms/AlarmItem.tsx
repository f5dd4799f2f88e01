import type { Alarm } from '@fabscope/contracts';
import { useState } from 'react';
import { DirectionButton } from '../../components/DirectionButton.tsx';
import { formatDateTimeField } from '../../lib/format.ts';
import { JobsAffected } from '../jobs/JobsAffected.tsx';
import { AlarmUnknown } from './AlarmUnknown.tsx';
import { memberValueText, summaryShown } from './alarm-unknown.ts';
import { alarmLook } from './alarmState.ts';

const dateTime = (iso: string) => formatDateTimeField(Date.parse(iso));

/** One alarm: its severity (red only while nobody acknowledged it), its text kept when cleared, dates. */
export function AlarmItem({
  alarm: a,
  onAcknowledge,
  onOpenHistory,
  onSelectJob,
}: {
  alarm: Alarm;
  /** Absent while viewing the past: acknowledging acts on now. */
  onAcknowledge?: (alarm: Alarm) => void;
  onOpenHistory?: (id: string) => void;
  onSelectJob?: (id: string) => void;
}) {
  const look = alarmLook(a);
  return (
    <li
      className={`alarm alarm-${a.state} alarm-${look.state} severity-${a.severity}`}
      data-alarm-id={a.id}
      data-alarm-state={look.state}
    >
      <div className="alarm-head">
        <span className={`chip chip-severity-${look.tone}`}>{look.chip}</span>{' '}
        <span className="alarm-summary">{summaryShown(a.summary, a.unknown)}</span>
      </div>
      <div className="alarm-when muted small">
        <time dateTime={a.raisedAt}>raised {dateTime(a.raisedAt)}</time>
        {a.clearedAt && (
          <>
            {' · '}
            <time dateTime={a.clearedAt}>cleared {dateTime(a.clearedAt)}</time>
          </>
        )}
        {a.acknowledged && (
          <>
            {' · '}
            <time dateTime={a.acknowledged.at}>
              acknowledged by {a.acknowledged.by} {dateTime(a.acknowledged.at)}
            </time>
          </>
        )}
        {!a.acknowledged && onAcknowledge && (
          <button type="button" className="btn btn-small alarm-ack" onClick={() => onAcknowledge(a)}>
            Acknowledge
          </button>
        )}
      </div>
      {a.state === 'active' && <AlarmUnknown unknown={a.unknown} />}
      {a.members.length > 0 && onOpenHistory && (
        <AlarmMembers members={a.members} onOpenHistory={onOpenHistory} />
      )}
      {a.state === 'active' && a.members.length > 0 && onSelectJob && (
        <JobsAffected alarm={a.id} onSelectJob={onSelectJob} />
      )}
    </li>
  );
}

/** An alarm's worst directions, built only while open: they change with every tick's load. */
function AlarmMembers({
  members,
  onOpenHistory,
}: {
  members: Alarm['members'];
  onOpenHistory: (id: string) => void;
}) {
  const [open, setOpen] = useState(false);
  return (
    <details open={open} onToggle={(e) => setOpen(e.currentTarget.open)}>
      <summary>worst {members.length}</summary>
      {open && (
        <ul className="alarm-members">
          {members.map((m) => (
            <li key={m.id}>
              <DirectionButton id={m.id} onOpen={onOpenHistory} title="Open its history" />{' '}
              <span className={`small ${m.unknownSince === undefined ? 'muted' : 'alarm-member-unknown'}`}>
                {memberValueText(m)}
              </span>
            </li>
          ))}
        </ul>
      )}
    </details>
  );
}
