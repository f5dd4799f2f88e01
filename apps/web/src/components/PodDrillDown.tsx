import { type KeyboardEvent, memo, useCallback, useId, useMemo, useState } from 'react';
import type { CompactSnapshot, Topology } from '../api/types.ts';
import { utilizationColor } from '../lib/colors.ts';
import { isCongested } from '../lib/congestion.ts';
import { formatPercent, formatRate } from '../lib/format.ts';
import { buildPods, busiest, switchPorts } from '../lib/podMatrix.ts';
import { usePreference } from '../state/preferences.ts';
import { useUrlParam } from '../state/useUrlState.ts';
import { TableScroll } from './TableScroll.tsx';

interface PodDrillDownProps {
  topology: Topology;
  snapshot: CompactSnapshot | null;
  /** The pod shown (index into the pods in name order). */
  pod: number;
  onPodChange: (pod: number) => void;
  /** Opens a channel's history. */
  onSelectChannel?: (channel: number) => void;
}

const parseSwitch = (raw: string | null): string | null => (raw === null || raw === '' ? null : raw);
const serializeSwitch = (name: string | null): string | null => name;

/**
 * One cell of the pod matrix: what it shows is strings and flags, so a message that leaves a
 * cable's colours and percentages as they were re-renders nothing of it (a pod is 576 buttons at
 * fat-tree-27648, each with its label, title and gradient written again on every message before).
 */
const PodCellButton = memo(function PodCellButton({
  row,
  column,
  label,
  upColor,
  downColor,
  waiting,
  focused,
  channel,
  onFocusCell,
  onSelectChannel,
}: {
  row: number;
  column: number;
  label: string;
  upColor: string;
  downColor: string;
  waiting: boolean;
  /** The matrix's one tab stop. */
  focused: boolean;
  /** The channel a click opens (the first up). */
  channel: number;
  onFocusCell: (row: number, column: number) => void;
  onSelectChannel: ((channel: number) => void) | undefined;
}) {
  return (
    <button
      type="button"
      className={`pod-cell ${waiting ? 'pod-cell-wait' : ''}`}
      style={{ background: `linear-gradient(to bottom right, ${upColor} 50%, ${downColor} 50%)` }}
      aria-label={label}
      title={label}
      data-cell={`${row}:${column}`}
      tabIndex={focused ? 0 : -1}
      onFocus={() => onFocusCell(row, column)}
      onClick={onSelectChannel ? () => onSelectChannel(channel) : undefined}
    />
  );
});

/**
 * The way down on a three-tier fabric: one pod's edge × aggregation matrix (each cell split into
 * its up and down direction, coloured by utilization, ringed when waiting for credit), then one
 * switch's ports. Every cell and port is a button: reachable by keyboard, its values in its name.
 */
export function PodDrillDown({ topology, snapshot, pod, onPodChange, onSelectChannel }: PodDrillDownProps) {
  const pods = useMemo(() => buildPods(topology), [topology]);
  // The switch whose ports are shown is in the URL too (`?switch=`): a link reopens it.
  const [selectedSwitch, setSelectedSwitch] = useUrlParam('switch', parseSwitch, serializeSwitch);
  // One tab stop for the matrix (a roving tabindex): arrow keys move between its cells.
  const [focus, setFocus] = useState<[number, number]>([0, 0]);
  const unit = usePreference('rateUnit');
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
  if (!shown) return null;
  const u = snapshot?.utilization ?? [];
  const w = snapshot?.waitFraction ?? [];
  const b = snapshot?.bytesPerSecond ?? [];
  const pick = (name: string) => setSelectedSwitch(selectedSwitch === name ? null : name);
  const move = (event: KeyboardEvent<HTMLTableElement>) => {
    const step: Record<string, [number, number]> = {
      ArrowUp: [-1, 0],
      ArrowDown: [1, 0],
      ArrowLeft: [0, -1],
      ArrowRight: [0, 1],
    };
    const d = step[event.key];
    if (!d) return;
    event.preventDefault();
    const r = Math.min(Math.max(focus[0] + d[0], 0), shown.edges.length - 1);
    const c = Math.min(Math.max(focus[1] + d[1], 0), shown.aggregations.length - 1);
    setFocus([r, c]);
    event.currentTarget.querySelector<HTMLButtonElement>(`[data-cell="${r}:${c}"]`)?.focus();
  };

  return (
    <section className="pod-drill" aria-label="Pod detail">
      <div className="pod-drill-head">
        <label htmlFor={podId}>Pod</label>
        <select
          id={podId}
          value={pods.indexOf(shown)}
          onChange={(e) => {
            onPodChange(Number(e.target.value));
            setSelectedSwitch(null);
          }}
        >
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
      <div className="pod-matrix-wrap">
        <table className="pod-matrix" onKeyDown={move}>
          <caption className="visually-hidden">
            {shown.name}: utilization of each edge–aggregation cable, both directions
          </caption>
          <thead>
            <tr>
              <th scope="col">edge \ aggregation</th>
              {shown.aggregations.map((a) => (
                <th key={a} scope="col">
                  <button
                    type="button"
                    className="link-button pod-switch"
                    aria-pressed={selectedSwitch === a}
                    onClick={() => pick(a)}
                  >
                    {a}
                  </button>
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {shown.edges.map((e, r) => (
              <tr key={e}>
                <th scope="row">
                  <button
                    type="button"
                    className="link-button pod-switch"
                    aria-pressed={selectedSwitch === e}
                    onClick={() => pick(e)}
                  >
                    {e}
                  </button>
                </th>
                {shown.aggregations.map((a, c) => {
                  const cell = shown.cells[r * shown.aggregations.length + c];
                  if (!cell)
                    return (
                      <td key={a} className="pod-cell-empty">
                        <span className="visually-hidden">not cabled</span>
                      </td>
                    );
                  const up = busiest(cell.up, u);
                  const down = busiest(cell.down, u);
                  const waiting = isCongested(busiest(cell.up, w)) || isCongested(busiest(cell.down, w));
                  return (
                    <td key={a}>
                      <PodCellButton
                        row={r}
                        column={c}
                        label={`${e} → ${a} ${formatPercent(up)}, ${a} → ${e} ${formatPercent(down)}${
                          waiting ? ', waiting for credit' : ''
                        }`}
                        upColor={utilizationColor(up)}
                        downColor={utilizationColor(down)}
                        waiting={waiting}
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
      {selectedSwitch && ports.length > 0 && (
        <TableScroll label="Ports of the switch">
          <table className="agg-table pod-ports">
            <caption>Ports of {selectedSwitch}</caption>
            <thead>
              <tr>
                <th scope="col" className="num">
                  Port
                </th>
                <th scope="col">To</th>
                <th scope="col" className="num">
                  Out util
                </th>
                <th scope="col" className="num">
                  Out rate
                </th>
                <th scope="col" className="num">
                  In util
                </th>
                <th scope="col" className="num">
                  Wait
                </th>
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
                  <td className={`num ${isCongested(w[p.out]) ? 'wait-high' : ''}`}>
                    {formatPercent(w[p.out])}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
    </section>
  );
}
