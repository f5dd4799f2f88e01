import type { Topology } from '@fabscope/contracts';
import { useId, useMemo } from 'react';
import type { CompactSnapshot } from '../../api/types.ts';
import { useUrlParam } from '../../state/useUrlState.ts';
import { switchPorts } from './podMatrix.ts';
import { SwitchPortsTable } from './SwitchPortsTable.tsx';
import { rowsFromSnapshot } from './switchPortRows.ts';

const parseSwitch = (raw: string | null): string | null => (raw === null || raw === '' ? null : raw);
const serializeSwitch = (name: string | null): string | null => name;

/**
 * A two-tier fabric's switch drill-down under its heatmap: pick an edge or core switch, see its ports
 * (the same sortable table as the pod drill-down's); the choice is in the URL (`?switch=`).
 */
export function SwitchDrillDown({
  topology,
  switches,
  snapshot,
  onSelectChannel,
}: {
  topology: Topology;
  /** The switches to pick from, in the heatmap's order (edges, then cores). */
  switches: readonly string[];
  snapshot: CompactSnapshot | null;
  onSelectChannel?: ((channel: number) => void) | undefined;
}) {
  const id = useId();
  const [selected, setSelected] = useUrlParam('switch', parseSwitch, serializeSwitch);
  const shown = selected !== null && switches.includes(selected) ? selected : null;
  const ports = useMemo(() => (shown ? switchPorts(topology, shown) : []), [topology, shown]);
  const rows = useMemo(() => rowsFromSnapshot(ports, snapshot), [ports, snapshot]);
  return (
    <section className="pod-drill switch-drill" aria-label="Switch detail">
      <div className="pod-drill-head">
        <label htmlFor={id}>Switch</label>
        <select id={id} value={shown ?? ''} onChange={(e) => setSelected(e.target.value || null)}>
          <option value="">choose a switch…</option>
          {switches.map((s) => (
            <option key={s} value={s}>
              {s}
            </option>
          ))}
        </select>
        <span className="hint">Its ports with both directions' load, wait and errors; a heading sorts.</span>
      </div>
      {shown && (
        <SwitchPortsTable
          caption={<>Ports of {shown}</>}
          rows={rows}
          onOpenPort={onSelectChannel && ((r) => onSelectChannel(r.out as number))}
          portTitle="Flows, jobs and history of the direction leaving this port"
        />
      )}
    </section>
  );
}
