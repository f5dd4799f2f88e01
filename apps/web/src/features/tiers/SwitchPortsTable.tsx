import { formatRate } from '@fabscope/contracts/units';
import type { CompactSnapshot } from '../../api/types.ts';
import { DataTable, num } from '../../components/DataTable.tsx';
import { formatPercent } from '../../lib/format.ts';
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
    <DataTable
      label="Ports of the switch"
      className="agg-table pod-ports"
      caption={<>Ports of {selectedSwitch}</>}
      columns={[num('Port'), 'To', num('Out util'), num('Out rate'), num('In util'), num('Wait')]}
    >
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
    </DataTable>
  );
}
