import type { JobList } from '@fabscope/contracts';
import { useMemo, useState } from 'react';
import { ErrorNote } from '../../components/ErrorNote.tsx';
import { type ApiLoad, useApiQuery } from '../../state/useApiQuery.ts';
import { affectedText } from './jobsAffected.ts';

/** Jobs listed under an alarm; the rest are counted. */
const AFFECTED_SHOWN = 10;

/** An alarm's "jobs affected": asked only while open, again on ticks; each job opens its page. */
export function JobsAffected({ alarm, onSelectJob }: { alarm: string; onSelectJob: (id: string) => void }) {
  const [open, setOpen] = useState(false);
  return (
    <details open={open} onToggle={(e) => setOpen(e.currentTarget.open)} className="jobs-affected">
      <summary>jobs affected</summary>
      {open && <AffectedList alarm={alarm} onSelectJob={onSelectJob} />}
    </details>
  );
}

function AffectedList({ alarm, onSelectJob }: { alarm: string; onSelectJob: (id: string) => void }) {
  const load = useMemo((): ApiLoad<JobList> => (api, signal) => api.getJobsAffected(alarm, signal), [alarm]);
  const answer = useApiQuery(['jobs-affected', alarm], load, {
    keepPrevious: true,
    live: true,
    forget: true,
  });
  if (answer.status === 'error') return <ErrorNote message={`Jobs affected: ${answer.message}`} />;
  if (answer.status !== 'ready') return <p className="placeholder small">Finding the jobs…</p>;
  const { jobs, total } = answer.data;
  if (jobs.length === 0)
    return <p className="placeholder small">No job’s traffic crosses these directions now.</p>;
  return (
    <ul className="job-list" aria-label="Jobs affected">
      {jobs.slice(0, AFFECTED_SHOWN).map((j) => (
        <li key={j.id} data-job-id={j.id}>
          <button type="button" className="link-button strong" onClick={() => onSelectJob(j.id)}>
            {j.name}
          </button>{' '}
          <span className="muted small">{affectedText(j)}</span>
        </li>
      ))}
      {total > AFFECTED_SHOWN && <li className="muted">… and {total - AFFECTED_SHOWN} more</li>}
    </ul>
  );
}
