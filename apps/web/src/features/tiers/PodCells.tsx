import { memo } from 'react';
import {
  type Pod,
  type PodCellLook,
  type PodCellValues,
  podCellLook,
  podCellValues,
  samePodCell,
} from './podMatrix.ts';

/** A pod matrix cell; what it shows is written in place by writePodCells, as re-rendering cost the most. */
export const PodCellButton = memo(function PodCellButton({
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

/** Writes each cell's look into its button; a cell whose values did not change is left as it is. */
export function writePodCells(
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
