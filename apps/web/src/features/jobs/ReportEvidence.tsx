import type { MouseEvent } from 'react';
import { formatClock, formatDirection } from '../../lib/format.ts';
import { type Evidence, evidenceUrl } from './jobReport.ts';

interface ReportEvidenceProps {
  evidence: readonly Evidence[];
  /** Travels there in this page; absent, the link reloads the dashboard at that instant. */
  onOpen?: (evidence: Evidence) => void;
}

/** The instants that show it, each a link opening time travel there on its direction. */
export function ReportEvidence({ evidence, onOpen }: ReportEvidenceProps) {
  if (evidence.length === 0) return null;
  const open = (e: MouseEvent<HTMLAnchorElement>, item: Evidence) => {
    // A plain click travels in place; a middle or modified click opens the link as links do.
    if (!onOpen || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    e.preventDefault();
    onOpen(item);
  };
  return (
    <section aria-label="Evidence">
      <h4>Evidence</h4>
      <ul className="job-evidence">
        {evidence.map((item) => (
          <li key={`${item.time} ${item.direction}`}>
            <a
              href={evidenceUrl(window.location.href, item)}
              onClick={(e) => open(e, item)}
              title="Open time travel at this instant on this link"
            >
              <time dateTime={item.time}>{formatClock(Date.parse(item.time))}</time>{' '}
              <span className="mono">{formatDirection(item.direction)}</span>
            </a>{' '}
            <span className="muted small">{item.what}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}
