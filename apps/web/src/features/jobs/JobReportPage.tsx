import type { JobReport } from '@fabscope/contracts';
import { useMemo } from 'react';
import { ErrorNote } from '../../components/ErrorNote.tsx';
import { formatAge, formatClock } from '../../lib/format.ts';
import { type ApiLoad, useApiQuery } from '../../state/useApiQuery.ts';
import { type Evidence, unknownLines, windowSeconds } from './jobReport.ts';
import { ReportBlame } from './ReportBlame.tsx';
import { ReportDirections } from './ReportDirections.tsx';
import { ReportEvidence } from './ReportEvidence.tsx';

interface JobReportPageProps {
  id: string;
  onSelectJob: (id: string) => void;
  onSelectLink: (id: string) => void;
  /** Time travel to an evidence instant on its direction. */
  onEvidence?: (evidence: Evidence) => void;
}

/** A job's fabric report (`/jobs/{id}/report`): asked once per job (it reads the whole run), again on Refresh. */
export function JobReportPage({ id, onSelectJob, onSelectLink, onEvidence }: JobReportPageProps) {
  const load = useMemo((): ApiLoad<JobReport> => (api, signal) => api.getJobReport(id, signal), [id]);
  const report = useApiQuery(['job-report', id], load, { watch: ['updating'] });
  return (
    <section className="job-report" aria-label={`Fabric report of job ${id}`} data-job-report={id}>
      <div className="button-row">
        <h3>Fabric report</h3>
        <button type="button" className="btn btn-small" onClick={report.reload} disabled={report.updating}>
          {report.updating ? 'Reading…' : 'Refresh'}
        </button>
      </div>
      {report.status === 'loading' && <p className="placeholder">Reading its run from the history…</p>}
      {report.status === 'error' && <ErrorNote message={`Report of job ${id}: ${report.message}`} />}
      {report.status === 'ready' && (
        <ReportBody
          report={report.data}
          onSelectJob={onSelectJob}
          onSelectLink={onSelectLink}
          onEvidence={onEvidence}
        />
      )}
    </section>
  );
}

function ReportBody({
  report,
  onSelectJob,
  onSelectLink,
  onEvidence,
}: Omit<JobReportPageProps, 'id'> & { report: JobReport }) {
  const seconds = windowSeconds(report);
  const unknowns = unknownLines(report);
  return (
    <>
      <p className={`job-verdict strong verdict-${report.verdict.cause}`} data-testid="job-verdict">
        {report.verdict.text}
      </p>
      <p className="hint">
        {formatClock(Date.parse(report.window.from))} – {formatClock(Date.parse(report.window.to))} (
        {formatAge(seconds)}
        {report.window.asked ? '' : ', its run'}) · {report.pattern.statement} · routes{' '}
        {report.routes.source === 'subnet-manager'
          ? 'as the subnet manager programmed them'
          : report.routes.source}
        {report.routes.adaptiveRouting.state === 'on' && ', adaptive routing on'}
      </p>
      <ReportBlame
        title="Culprits"
        behindTitle="Of its run, the share spent behind a direction this job weighed on"
        rows={report.culprits}
        none="No other job shares its congested directions."
        onSelectJob={onSelectJob}
        onSelectLink={onSelectLink}
      />
      <ReportBlame
        title="Victims"
        behindTitle="Of the victim's run, the share behind a direction this job congested"
        rows={report.victims}
        none="It slowed no other job."
        onSelectJob={onSelectJob}
        onSelectLink={onSelectLink}
      />
      {report.directionsTotal === 0 ? (
        <p className="placeholder">None of its routes crosses a link of this fabric.</p>
      ) : (
        <ReportDirections
          directions={report.directions}
          total={report.directionsTotal}
          windowSeconds={seconds}
          onSelectLink={onSelectLink}
        />
      )}
      <ReportEvidence evidence={report.evidence} {...(onEvidence ? { onOpen: onEvidence } : {})} />
      {unknowns.length > 0 && (
        <section aria-label="Unknown">
          <h4>Unknown</h4>
          <ul className="job-unknowns">
            {unknowns.map((line) => (
              <li key={line}>{line}</li>
            ))}
          </ul>
        </section>
      )}
    </>
  );
}
