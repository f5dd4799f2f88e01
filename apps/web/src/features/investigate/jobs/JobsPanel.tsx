import type { JobDetail, JobList } from '@fabscope/contracts';
import { useMemo, useState } from 'react';
import { DataTable, num } from '../../../components/DataTable.tsx';
import { DirectionButton } from '../../../components/DirectionButton.tsx';
import { ErrorNote } from '../../../components/ErrorNote.tsx';
import { formatCount, formatPercent } from '../../../lib/format.ts';
import { jobHostListText, jobNodeText } from '../../../lib/jobs.ts';
import { useRateFormat } from '../../../state/preferences.ts';
import { type ApiLoad, useApiQuery } from '../../../state/useApiQuery.ts';
import { JobReportPage } from '../../jobs/JobReportPage.tsx';
import type { Evidence } from '../../jobs/jobReport.ts';

/** Jobs listed, and busiest links of the selected one. */
const JOBS_SHOWN = 50;
const LINKS_SHOWN = 8;

interface JobsPanelProps {
  /** The selected job's id (kept in the URL), or null. */
  selected: string | null;
  onSelect: (id: string | null) => void;
  onSelectLink: (id: string) => void;
  /** Time travel to a report's evidence instant on its direction. */
  onEvidence?: (evidence: Evidence) => void;
}

const loadJobs: ApiLoad<JobList> = (api, signal) => api.getJobs(signal);

/** Jobs (Slurm's, a jobs file's, or the emulator's traffic): select one to see where it runs. */
export function JobsPanel({ selected, onSelect, onSelectLink, onEvidence }: JobsPanelProps) {
  const rates = useRateFormat();
  const jobs = useApiQuery(['jobs'], loadJobs, { keepPrevious: true, live: true });
  const loadDetail = useMemo(
    (): ApiLoad<JobDetail> | null =>
      selected === null ? null : (api, signal) => api.getJob(selected, signal),
    [selected],
  );
  const detail = useApiQuery(['job', selected], loadDetail, { keepPrevious: true, live: true });
  const shown = detail.status === 'ready' && detail.data.job.id === selected ? detail.data : null;
  return (
    <div className="jobs-panel">
      {jobs.status === 'error' && <ErrorNote message={`Jobs: ${jobs.message}`} />}
      {jobs.status === 'loading' && <p className="placeholder">Loading jobs…</p>}
      {jobs.status === 'ready' && jobs.data.jobs.length === 0 && (
        <p className="placeholder">
          {jobs.data.source === 'none'
            ? 'No job source: set FABSCOPE_JOBS (slurm, slurm-text or file:PATH).'
            : 'No jobs. Traffic started in the emulator shows up here as a job.'}
        </p>
      )}
      {jobs.status === 'ready' && jobs.data.jobs.length > 0 && (
        <ul className="job-list" aria-label="Jobs">
          {jobs.data.jobs.slice(0, JOBS_SHOWN).map((j) => (
            <li key={j.id} data-job-id={j.id}>
              <button
                type="button"
                className="link-button"
                aria-pressed={j.id === selected}
                onClick={() => onSelect(j.id === selected ? null : j.id)}
              >
                {j.name}
              </button>{' '}
              <span className="muted">
                {j.id !== j.name && `#${j.id} · `}
                {j.user && `${j.user} · `}
                {j.state.toLowerCase()} · {j.nodes.length} {j.nodes.length === 1 ? 'node' : 'nodes'}
              </span>
            </li>
          ))}
          {jobs.data.jobs.length > JOBS_SHOWN && (
            <li className="muted">… and {jobs.data.jobs.length - JOBS_SHOWN} more</li>
          )}
        </ul>
      )}
      {selected !== null && detail.status === 'error' && (
        <ErrorNote message={`Job ${selected}: ${detail.message}`} />
      )}
      {shown && (
        <section aria-label={`Job ${shown.job.name}`} className="job-detail">
          <h3>
            {shown.job.name} <span className="muted">({shown.job.state.toLowerCase()})</span>
          </h3>
          <JobNodes key={shown.job.id} nodes={shown.nodes} />
          {shown.contention && (
            <p className="hint">
              Predicted (static routing): at most {shown.contention.maxIslLoad} of its flows on one ISL,{' '}
              {shown.contention.sharedIsls} shared ISL directions, slowest flow{' '}
              {rates.gbps(shown.contention.minFlowGbps)}.
            </p>
          )}
          {shown.links.length === 0 ? (
            <p className="placeholder">No traffic of this job on the fabric now.</p>
          ) : (
            <DataTable
              label="Busiest links of the job"
              caption={
                <>Busiest links of the job{shown.estimated && ' (estimated from its nodes’ static routes)'}</>
              }
              columns={['Link', num('Job'), num('Share')]}
            >
              {shown.links.slice(0, LINKS_SHOWN).map((l) => (
                <tr key={l.id}>
                  <td className="mono">
                    <DirectionButton id={l.id} onOpen={onSelectLink} />
                  </td>
                  <td className="num">
                    {l.jobBytesPerSecond === null ? `${l.flows} flows` : rates.rate(l.jobBytesPerSecond)}
                  </td>
                  <td className="num">{formatPercent(l.share)}</td>
                </tr>
              ))}
            </DataTable>
          )}
        </section>
      )}
      {selected !== null && (
        <JobReportPage
          key={selected}
          id={selected}
          onSelectJob={onSelect}
          onSelectLink={onSelectLink}
          {...(onEvidence ? { onEvidence } : {})}
        />
      )}
    </div>
  );
}

/** A job's hosts as a Slurm host list (`host[1-1152]`); each one, with its rails, on demand. */
function JobNodes({ nodes }: { nodes: JobDetail['nodes'] }) {
  const [each, setEach] = useState(false);
  return (
    <div className="job-nodes">
      <p className="hint mono" data-testid="job-nodes">
        Nodes: {each ? nodes.map(jobNodeText).join(', ') || '—' : jobHostListText(nodes)}
      </p>
      {nodes.length > 1 && (
        <button type="button" className="btn btn-small" aria-expanded={each} onClick={() => setEach(!each)}>
          {each ? 'As a host list' : `List each of ${formatCount(nodes.length)}`}
        </button>
      )}
    </div>
  );
}
