import type { Alarm, AlarmList } from '@fabscope/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { memo, useState } from 'react';
import { ErrorNote } from '../../components/ErrorNote.tsx';
import { InputField } from '../../components/Field.tsx';
import { formatDateTimeField } from '../../lib/format.ts';
import { useApi } from '../../state/ApiContext.tsx';
import { storage } from '../../state/preferences.ts';
import { type ApiLoad, useApiQuery } from '../../state/useApiQuery.ts';
import { AlarmItem } from './AlarmItem.tsx';

const NAME_KEY = 'fabscope.acknowledgeAs';
/** The alarms section's id: the header's count scrolls to it. */
export const ALARMS_ANCHOR = 'alarms';

/** The alarms now, or as they stood at `atMs`; `all`: the cleared ones too. */
export const alarmsQuery = (all: boolean, atMs: number | null) => ({
  key: ['alarms', all, atMs] as const,
  load: ((api, signal) => api.getAlarms(all, signal, atMs)) as ApiLoad<AlarmList>,
});

const savedName = () => storage()?.getItem(NAME_KEY) ?? '';

/** UFM-style alarms per group of directions over a PM threshold, with acknowledgement. */
export const AlarmsList = memo(function AlarmsList({
  atMs = null,
  onOpenHistory,
  onSelectJob,
}: {
  /** The instant viewed: the alarms as they stood then (null: now). */
  atMs?: number | null;
  onOpenHistory?: (id: string) => void;
  /** Opens a job's page: an active alarm lists the jobs whose traffic crosses its directions. */
  onSelectJob?: (id: string) => void;
}) {
  const api = useApi();
  const queryClient = useQueryClient();
  const [all, setAll] = useState(false);
  const [name, setName] = useState(savedName);
  const [problem, setProblem] = useState<string | null>(null);
  const question = alarmsQuery(all, atMs);
  const alarms = useApiQuery(question.key, question.load, {
    keepPrevious: true,
    ...(atMs === null ? { live: true as const } : {}),
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
  const past = atMs !== null;
  return (
    <section className="alarms" aria-label="Alarms" id={ALARMS_ANCHOR} tabIndex={-1}>
      <div className="table-controls">
        <strong>Alarms</strong>
        {past && <span className="chip">as of {formatDateTimeField(atMs)}</span>}
        <label>
          <input type="checkbox" checked={all} onChange={(e) => setAll(e.target.checked)} /> cleared too
        </label>
        {!past && (
          <InputField
            label="acknowledge as"
            type="text"
            className="ack-name"
            value={name}
            placeholder="your name"
            onChange={setName}
          />
        )}
      </div>
      {alarms.status === 'error' && <ErrorNote message={`Alarms: ${alarms.message}`} />}
      {problem && <ErrorNote message={problem} />}
      {alarms.status === 'ready' && list.length === 0 && (
        <p className="placeholder">
          {past ? 'No alarm was active then.' : all ? 'No alarm raised lately.' : 'No active alarm.'}
        </p>
      )}
      <ul className="alarm-list" aria-label={all ? 'Alarms, cleared too' : 'Active alarms'}>
        {list.map((a) => (
          <AlarmItem
            key={a.id}
            alarm={a}
            {...(past ? {} : { onAcknowledge: acknowledge })}
            {...(onOpenHistory ? { onOpenHistory } : {})}
            {...(onSelectJob ? { onSelectJob } : {})}
          />
        ))}
      </ul>
    </section>
  );
});
