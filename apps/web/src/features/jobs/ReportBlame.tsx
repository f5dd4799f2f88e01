import { DataTable, num } from '../../components/DataTable.tsx';
import { DirectionButton } from '../../components/DirectionButton.tsx';
import { type Blame, blameShares } from './jobReport.ts';

interface ReportBlameProps {
  /** "Culprits" or "Victims". */
  title: string;
  /** What the share of time behind means for these rows. */
  behindTitle: string;
  rows: readonly Blame[];
  /** Said when there are none. */
  none: string;
  onSelectJob: (id: string) => void;
  onSelectLink: (id: string) => void;
}

/** Culprits or victims, ranked as the report ranks them, each job opening its own page. */
export function ReportBlame({ title, behindTitle, rows, none, onSelectJob, onSelectLink }: ReportBlameProps) {
  if (rows.length === 0) return <p className="hint">{none}</p>;
  return (
    <DataTable
      label={title}
      caption={title}
      columns={[
        '#',
        'Job',
        num('Time behind', behindTitle),
        num('Share', 'Its share of the traffic there'),
        'Where',
      ]}
    >
      {rows.map((b, i) => {
        const shares = blameShares(b);
        return (
          <tr key={b.job} data-job-id={b.job}>
            <td className="num">{i + 1}</td>
            <td>
              <button type="button" className="link-button strong" onClick={() => onSelectJob(b.job)}>
                {b.job}
              </button>
            </td>
            <td className="num">{shares.behind}</td>
            <td className="num">{shares.traffic}</td>
            <td className="mono">
              <DirectionButton id={b.direction} onOpen={onSelectLink} title="Its flows and history" />
              {b.directions > 1 && <span className="muted small"> +{b.directions - 1} more</span>}
            </td>
          </tr>
        );
      })}
    </DataTable>
  );
}
