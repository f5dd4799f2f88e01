import {
  type KeyboardEvent,
  memo,
  useCallback,
  useId,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
} from 'react';
import type { CompactSnapshot, Topology } from '../../api/types.ts';
import { TableScroll } from '../../components/TableScroll.tsx';
import { isCongested } from '../../lib/congestion.ts';
import { formatPercent, formatRate } from '../../lib/format.ts';
import { usePreference } from '../../state/preferences.ts';
import { useUrlParam } from '../../state/useUrlState.ts';
import {
  buildPods,
  type Pod,
  type PodCellLook,
  type PodCellValues,
  podCellLook,
  podCellValues,
  samePodCell,
  switchPorts,
} from './podMatrix.ts';

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
 * One cell of the pod matrix as React renders it: where it is and what a click opens. What it
 * shows — its colours, its name with both directions' values, its ring — is written in place on
 * each message (writePodCells), as a canvas is drawn: a pod is 576 cells at fat-tree-27648, and
 * re-rendering every one of them on each message was most of the page's work per tick.
 */
const PodCellButton = memo(function PodCellButton({
  row,
  column,
  focused,
  channel,
  onFocusCell,
  onSelectChannel,
}: {
  row: number;
  column: number;
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
      className="pod-cell"
      data-cell={`${row}:${column}`}
      tabIndex={focused ? 0 : -1}
      onFocus={() => onFocusCell(row, column)}
      onClick={onSelectChannel ? () => onSelectChannel(channel) : undefined}
    />
  );
});

/** What each cell button shows now, so a message writes only what changed. */
const written = new WeakMap<HTMLButtonElement, { values: PodCellValues; look: PodCellLook }>();

/**
 * Writes each cell's look (podCellLook) into its button: background, name and title, ring. A cell
 * whose values are those it shows is left as it is (no text made, nothing written), so a quiet pod
 * costs no DOM work.
 */
function writePodCells(
  table: HTMLTableElement,
  pod: Pod,
  utilization: ArrayLike<number | null>,
  waitFraction: ArrayLike<number | null>,
): void {
  // The cell buttons in document order: row-major, cabled cells only (as the matrix renders them).
  const buttons = table.querySelectorAll<HTMLButtonElement>('button.pod-cell');
  let next = 0;
  pod.edges.forEach((edge, r) => {
    pod.aggregations.forEach((aggregation, c) => {
      const cell = pod.cells[r * pod.aggregations.length + c];
      const button = cell ? buttons[next++] : undefined;
      if (!cell || !button) return;
      const values = podCellValues(cell, utilization, waitFraction);
      const before = written.get(button);
      if (before && samePodCell(before.values, values)) return;
      const look = podCellLook(values, edge, aggregation);
      if (before?.look.label !== look.label) {
        button.setAttribute('aria-label', look.label);
        button.title = look.label;
      }
      if (before?.look.upColor !== look.upColor || before?.look.downColor !== look.downColor) {
        button.style.background = `linear-gradient(to bottom right, ${look.upColor} 50%, ${look.downColor} 50%)`;
      }
      if (before?.look.waiting !== look.waiting) button.classList.toggle('pod-cell-wait', look.waiting);
      written.set(button, { values, look });
    });
  });
}

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
  const matrixRef = useRef<HTMLTableElement>(null);
  // Before the browser paints: the cells never show without their colours and names.
  useLayoutEffect(() => {
    const table = matrixRef.current;
    if (table && shown)
      writePodCells(table, shown, snapshot?.utilization ?? [], snapshot?.waitFraction ?? []);
  }, [shown, snapshot]);
  // The pod's head and matrix, made again when the pod, the focus or the switch shown change — not
  // on each message: the cells' looks are written in place (writePodCells), and re-rendering 576
  // cells' <td>s to find nothing changed cost more than the rest of the panel.
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
      <>
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
  const u = snapshot?.utilization ?? [];
  const w = snapshot?.waitFraction ?? [];
  const b = snapshot?.bytesPerSecond ?? [];

  return (
    <section className="pod-drill" aria-label="Pod detail">
      {matrix}
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
