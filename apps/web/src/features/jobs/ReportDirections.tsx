import type { ReportDirection } from '@fabscope/contracts';
import { DataTable, num } from '../../components/DataTable.tsx';
import { DirectionButton } from '../../components/DirectionButton.tsx';
import { formatPercent } from '../../lib/format.ts';
import { hotDirections, secondsOfWindowText, statsText, usersText } from './jobReport.ts';

interface ReportDirectionsProps {
  directions: readonly ReportDirection[];
  /** Every direction its routes cross, listed or not. */
  total: number;
  windowSeconds: number;
  onSelectLink: (id: string) => void;
}

/** The hot link directions its routes cross: utilization, wait, errors, flaps, time behind, other users. */
export function ReportDirections({ directions, total, windowSeconds, onSelectLink }: ReportDirectionsProps) {
  const { hot, calm } = hotDirections(directions);
  const quiet = calm + (total - directions.length);
  if (hot.length === 0) {
    return (
      <p className="hint">
        None of its {total} link {total === 1 ? 'direction was' : 'directions were'} congested, erroring or
        down in the window.
      </p>
    );
  }
  return (
    <DataTable
      label="Hot link directions"
      caption={
        <>
          Hot link directions
          {quiet > 0 && (
            <span className="muted">
              {' '}
              ({quiet} calm {quiet === 1 ? 'one' : 'ones'} not shown)
            </span>
          )}
        </>
      }
      columns={[
        'Direction',
        num('Util.', 'mean · p95 · max over the window'),
        num('Wait', 'XmitWait share: mean · p95 · max'),
        num('Behind', 'Time congested (share of the window)'),
        num('Errors', 'Thresholds crossed · time errored'),
        num('Flaps'),
        num('Job', "The job's share of its traffic"),
        'Other users',
      ]}
    >
      {hot.map((d) => (
        <tr key={d.id} data-direction={d.id}>
          <td className="mono">
            <DirectionButton id={d.id} onOpen={onSelectLink} title="Its flows and history" />
          </td>
          <td className="num">{statsText(d.utilization)}</td>
          <td className="num">{statsText(d.transmitWait)}</td>
          <td className="num">{secondsOfWindowText(d.behindSeconds, windowSeconds)}</td>
          <td className="num">
            {d.errors.raised}
            {d.errors.erroredSeconds > 0 &&
              ` · ${secondsOfWindowText(d.errors.erroredSeconds, windowSeconds)}`}
          </td>
          <td className="num">{d.state.flaps}</td>
          <td className="num">{formatPercent(d.jobShare, 0)}</td>
          <td className="small">{usersText(d.users)}</td>
        </tr>
      ))}
    </DataTable>
  );
}
