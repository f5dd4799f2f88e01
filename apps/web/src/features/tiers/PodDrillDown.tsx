import type { Topology } from '@fabscope/contracts';
import { type KeyboardEvent, useCallback, useId, useLayoutEffect, useMemo, useRef, useState } from 'react';
import type { CompactSnapshot } from '../../api/types.ts';
import { useUrlParam } from '../../state/useUrlState.ts';
import { PodCellButton, writePodCells } from './PodCells.tsx';
import { buildPods, type Pod, switchPorts } from './podMatrix.ts';
import { SwitchPortsTable } from './SwitchPortsTable.tsx';
import { rowsFromSnapshot } from './switchPortRows.ts';

interface PodDrillDownProps {
  topology: Topology;
  snapshot: CompactSnapshot | null;
  /** The pod shown (index into the pods in name order). */
  pod: number;
  onPodChange: (pod: number) => void;
  onSelectChannel?: (channel: number) => void;
}

const parseSwitch = (raw: string | null): string | null => (raw === null || raw === '' ? null : raw);
const serializeSwitch = (name: string | null): string | null => name;

const STEP: Record<string, [number, number]> = {
  ArrowUp: [-1, 0],
  ArrowDown: [1, 0],
  ArrowLeft: [0, -1],
  ArrowRight: [0, 1],
};

/** Arrow keys move the matrix's one tab stop (a roving tabindex) between its cells. */
function moveFocus(
  event: KeyboardEvent<HTMLTableElement>,
  focus: [number, number],
  pod: Pod,
  setFocus: (cell: [number, number]) => void,
): void {
  const d = STEP[event.key];
  if (!d) return;
  event.preventDefault();
  const r = Math.min(Math.max(focus[0] + d[0], 0), pod.edges.length - 1);
  const c = Math.min(Math.max(focus[1] + d[1], 0), pod.aggregations.length - 1);
  setFocus([r, c]);
  event.currentTarget.querySelector<HTMLButtonElement>(`[data-cell="${r}:${c}"]`)?.focus();
}

function podPicker(pods: readonly Pod[], shown: Pod, podId: string, onChange: (index: number) => void) {
  return (
    <div className="pod-drill-head">
      <label htmlFor={podId}>Pod</label>
      <select id={podId} value={pods.indexOf(shown)} onChange={(e) => onChange(Number(e.target.value))}>
        {pods.map((p, i) => (
          <option key={p.name} value={i}>
            {p.name}: {p.edges.length} edge × {p.aggregations.length} aggregation
          </option>
        ))}
      </select>
      <span className="hint">
        Each cell: ◤ edge → aggregation, ◢ back; ringed when waiting for credit. A switch name shows its
        ports.
      </span>
    </div>
  );
}

/** A pod's edge × aggregation matrix, then one switch's ports; every cell is a button naming its values. */
export function PodDrillDown({ topology, snapshot, pod, onPodChange, onSelectChannel }: PodDrillDownProps) {
  const pods = useMemo(() => buildPods(topology), [topology]);
  // The switch whose ports are shown is in the URL too (`?switch=`): a link reopens it.
  const [selectedSwitch, setSelectedSwitch] = useUrlParam('switch', parseSwitch, serializeSwitch);
  // One tab stop for the matrix (a roving tabindex): arrow keys move between its cells.
  const [focus, setFocus] = useState<[number, number]>([0, 0]);
  const podId = useId();
  const focusCell = useCallback(
    (r: number, c: number) => setFocus((f) => (f[0] === r && f[1] === c ? f : [r, c])),
    [],
  );
  const shown = pods[Math.min(pod, pods.length - 1)];
  const ports = useMemo(
    () => (selectedSwitch ? switchPorts(topology, selectedSwitch) : []),
    [topology, selectedSwitch],
  );
  const rows = useMemo(() => rowsFromSnapshot(ports, snapshot), [ports, snapshot]);
  const matrixRef = useRef<HTMLTableElement>(null);
  // Before the browser paints: the cells never show without their colours and names.
  useLayoutEffect(() => {
    const table = matrixRef.current;
    if (table && shown)
      writePodCells(table, shown, snapshot?.utilization ?? [], snapshot?.waitFraction ?? []);
  }, [shown, snapshot]);
  // Not made again per message: writePodCells writes the cells' looks in place.
  const matrix = useMemo(() => {
    if (!shown) return null;
    const pick = (name: string) => setSelectedSwitch(selectedSwitch === name ? null : name);
    /** A row's or a column's switch: picks it (its ports below), or drops it when picked. */
    const switchButton = (name: string) => (
      <button
        type="button"
        className="link-button pod-switch"
        aria-pressed={selectedSwitch === name}
        onClick={() => pick(name)}
      >
        {name}
      </button>
    );
    const move = (event: KeyboardEvent<HTMLTableElement>) => moveFocus(event, focus, shown, setFocus);
    return (
      <>
        {podPicker(pods, shown, podId, (index) => {
          onPodChange(index);
          setSelectedSwitch(null);
        })}
        <div className="pod-matrix-wrap">
          <table className="pod-matrix" onKeyDown={move} ref={matrixRef}>
            <caption className="visually-hidden">
              {shown.name}: utilization of each edge–aggregation cable, both directions
            </caption>
            <thead>
              <tr>
                <th scope="col">edge \ aggregation</th>
                {shown.aggregations.map((a) => (
                  <th key={a} scope="col">
                    {switchButton(a)}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {shown.edges.map((e, r) => (
                <tr key={e}>
                  <th scope="row">{switchButton(e)}</th>
                  {shown.aggregations.map((a, c) => {
                    const cell = shown.cells[r * shown.aggregations.length + c];
                    if (!cell)
                      return (
                        <td key={a} className="pod-cell-empty">
                          <span className="visually-hidden">not cabled</span>
                        </td>
                      );
                    return (
                      <td key={a}>
                        <PodCellButton
                          row={r}
                          column={c}
                          focused={focus[0] === r && focus[1] === c}
                          channel={cell.up[0] ?? 0}
                          onFocusCell={focusCell}
                          onSelectChannel={onSelectChannel}
                        />
                      </td>
                    );
                  })}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </>
    );
  }, [shown, pods, podId, focus, selectedSwitch, setSelectedSwitch, onPodChange, focusCell, onSelectChannel]);
  if (!shown) return null;

  return (
    <section className="pod-drill" aria-label="Pod detail">
      {matrix}
      {selectedSwitch && ports.length > 0 && (
        <SwitchPortsTable
          caption={<>Ports of {selectedSwitch}</>}
          rows={rows}
          onOpenPort={onSelectChannel && ((r) => onSelectChannel(r.out as number))}
          portTitle="Flows, jobs and history of the direction leaving this port"
        />
      )}
    </section>
  );
}
