/** Where event-mark labels go: pure, so a test can prove no two boxes intersect. */

export interface LabelRequest {
  /** The mark's position on the plot, pixels from its left edge. */
  px: number;
  /** The label's width in pixels, as drawn (text and padding). */
  width: number;
  /** Higher first: when rows run out, the lower-priority marks go without a label; below 0, never labelled. */
  priority: number;
}

/** A label's box, pixels from the plot's top left corner. */
export interface LabelBox {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface LabelLayout {
  /** The plot's width: every box lies within [0, widthPx]. */
  widthPx: number;
  rows: number;
  /** A label's height; rows are this plus `rowGapPx` apart. */
  heightPx: number;
  rowGapPx?: number;
  /** Space between a mark and its label, and between two labels of a row. */
  gapPx?: number;
}

/** A box per mark, or null when no row has room; placed by priority, never intersecting. */
export function placeLabels(marks: readonly LabelRequest[], layout: LabelLayout): (LabelBox | null)[] {
  const gap = layout.gapPx ?? 4;
  const rowGap = layout.rowGapPx ?? 2;
  const rows = Math.max(0, Math.floor(layout.rows));
  const taken: { from: number; to: number }[][] = Array.from({ length: rows }, () => []);
  const free = (row: number, from: number, to: number) =>
    (taken[row] ?? []).every((t) => to + gap <= t.from || from >= t.to + gap);
  const boxes: (LabelBox | null)[] = marks.map(() => null);
  const order = marks
    .map((m, i) => ({ m, i }))
    .filter(({ m }) => m.priority >= 0 && Number.isFinite(m.px) && Number.isFinite(m.width) && m.width > 0)
    .sort((a, b) => b.m.priority - a.m.priority || a.m.px - b.m.px || a.m.width - b.m.width || a.i - b.i);
  for (const { m, i } of order) {
    const sides = [m.px + gap, m.px - gap - m.width].filter((x) => x >= 0 && x + m.width <= layout.widthPx);
    place: for (let row = 0; row < rows; row++) {
      for (const x of sides) {
        if (!free(row, x, x + m.width)) continue;
        taken[row]?.push({ from: x, to: x + m.width });
        boxes[i] = { x, y: row * (layout.heightPx + rowGap), width: m.width, height: layout.heightPx };
        break place;
      }
    }
  }
  return boxes;
}
