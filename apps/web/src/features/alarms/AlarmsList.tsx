import type { Alarm, AlarmList } from '@fabscope/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { memo, useState } from 'react';
import { DirectionButton } from '../../components/DirectionButton.tsx';
import { ErrorNote } from '../../components/ErrorNote.tsx';
import { InputField } from '../../components/Field.tsx';
import { formatClock } from '../../lib/format.ts';
import { useApi } from '../../state/ApiContext.tsx';
import { storage } from '../../state/preferences.ts';
import { type ApiLoad, useApiQuery } from '../../state/useApiQuery.ts';
import { JobsAffected } from '../jobs/JobsAffected.tsx';
import { AlarmUnknown } from './AlarmUnknown.tsx';
import { memberValueText, summaryShown } from './alarm-unknown.ts';

const NAME_KEY = 'fabscope.acknowledgeAs';
const loadActive: ApiLoad<AlarmList> = (api, signal) => api.getAlarms(false, signal);
const loadAll: ApiLoad<AlarmList> = (api, signal) => api.getAlarms(true, signal);

const savedName = () => storage()?.getItem(NAME_KEY) ?? '';

/** UFM-style alarms per group of directions over a PM threshold, with acknowledgement. */
export const AlarmsList = memo(function AlarmsList({
  onOpenHistory,
  onSelectJob,
}: {
  onOpenHistory?: (id: string) => void;
  /** Opens a job's page: an active alarm lists the jobs whose traffic crosses its directions. */
  onSelectJob?: (id: string) => void;
}) {
  const api = useApi();
  const queryClient = useQueryClient();
  const [all, setAll] = useState(false);
  const [name, setName] = useState(savedName);
  const [problem, setProblem] = useState<string | null>(null);
  const alarms = useApiQuery(['alarms', all], all ? loadAll : loadActive, {
    keepPrevious: true,
    live: true,
  });
  // Its answer is the alarm: the lists that show it are asked again.
  const acknowledgement = useMutation({
    mutationFn: ({ id, by }: { id: string; by: string }) => api.acknowledgeAlarm(id, by),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['alarms'] }),
    onError: (error) => setProblem(`Acknowledge: ${error.message}`),
  });
  const acknowledge = (alarm: Alarm) => {
    const by = name.trim();
    if (by === '') return setProblem('Say who acknowledges: your name');
    try {
      storage()?.setItem(NAME_KEY, by);
    } catch {
      // full or forbidden storage: the name is asked again next time
    }
    setProblem(null);
    acknowledgement.mutate({ id: alarm.id, by });
  };
  const list = alarms.status === 'ready' ? alarms.data.alarms : [];
  return (
    <section className="alarms" aria-label="Alarms">
      <div className="table-controls">
        <strong>Alarms</strong>
        <label>
          <input type="checkbox" checked={all} onChange={(e) => setAll(e.target.checked)} /> cleared too
        </label>
        <InputField
          label="acknowledge as"
          type="text"
          className="ack-name"
          value={name}
          placeholder="your name"
          onChange={setName}
        />
      </div>
      {alarms.status === 'error' && <ErrorNote message={`Alarms: ${alarms.message}`} />}
      {problem && <ErrorNote message={problem} />}
      {alarms.status === 'ready' && list.length === 0 && (
        <p className="placeholder">{all ? 'No alarm raised lately.' : 'No active alarm.'}</p>
      )}
      <ul className="alarm-list" aria-label={all ? 'Alarms, cleared too' : 'Active alarms'}>
        {list.map((a) => (
          <li key={a.id} className={`alarm alarm-${a.state} severity-${a.severity}`} data-alarm-id={a.id}>
            <span className={`chip chip-severity-${a.state === 'active' ? a.severity : 'info'}`}>
              {a.state === 'active' ? a.severity : 'cleared'}
            </span>{' '}
            <span className="alarm-summary">
              {a.state === 'active' ? summaryShown(a.summary, a.unknown) : `${a.category} (${a.linkKind})`}
            </span>{' '}
            <time className="muted small" dateTime={a.raisedAt}>
              since {formatClock(Date.parse(a.raisedAt))}
              {a.clearedAt ? `, cleared ${formatClock(Date.parse(a.clearedAt))}` : ''}
            </time>{' '}
            {a.acknowledged ? (
              <span className="muted small">
                acknowledged by {a.acknowledged.by} at {formatClock(Date.parse(a.acknowledged.at))}
              </span>
            ) : (
              <button type="button" className="btn btn-small" onClick={() => acknowledge(a)}>
                Acknowledge
              </button>
            )}
            {a.state === 'active' && <AlarmUnknown unknown={a.unknown} />}
            {a.members.length > 0 && onOpenHistory && (
              <AlarmMembers members={a.members} onOpenHistory={onOpenHistory} />
            )}
            {a.state === 'active' && a.members.length > 0 && onSelectJob && (
              <JobsAffected alarm={a.id} onSelectJob={onSelectJob} />
            )}
          </li>
        ))}
      </ul>
    </section>
  );
});

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
