import type { CompactSnapshot } from '../../api/types.ts';
import { NumHeader } from '../../components/NumHeader.tsx';
import { TableScroll } from '../../components/TableScroll.tsx';
import { formatPercent, formatRate } from '../../lib/format.ts';
import { isCongested } from '../../lib/linkHealth.ts';
import { usePreference } from '../../state/preferences.ts';
import type { SwitchPort } from './podMatrix.ts';

/** One switch's ports with both directions' load; a port number opens its history. */
export function SwitchPortsTable({
  selectedSwitch,
  ports,
  snapshot,
  onSelectChannel,
}: {
  selectedSwitch: string;
  ports: readonly SwitchPort[];
  snapshot: CompactSnapshot | null;
  onSelectChannel?: ((channel: number) => void) | undefined;
}) {
  const unit = usePreference('rateUnit');
  const u = snapshot?.utilization ?? [];
  const w = snapshot?.waitFraction ?? [];
  const b = snapshot?.bytesPerSecond ?? [];
  return (
    <TableScroll label="Ports of the switch">
      <table className="agg-table pod-ports">
        <caption>Ports of {selectedSwitch}</caption>
        <thead>
          <tr>
            <NumHeader>Port</NumHeader>
            <th scope="col">To</th>
            <NumHeader>Out util</NumHeader>
            <NumHeader>Out rate</NumHeader>
            <NumHeader>In util</NumHeader>
            <NumHeader>Wait</NumHeader>
          </tr>
        </thead>
        <tbody>
          {ports.map((p) => (
            <tr key={p.port}>
              <th scope="row" className="num">
                {onSelectChannel ? (
                  <button type="button" className="link-button" onClick={() => onSelectChannel(p.out)}>
                    {p.port}
                  </button>
                ) : (
                  p.port
                )}
              </th>
              <td className="mono">
                {p.peer}/{p.peerPort}
              </td>
              <td className="num">{formatPercent(u[p.out])}</td>
              <td className="num">{formatRate(b[p.out], unit)}</td>
              <td className="num">{formatPercent(u[p.in])}</td>
              <td className={`num ${isCongested(w[p.out]) ? 'wait-high' : ''}`}>{formatPercent(w[p.out])}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}
