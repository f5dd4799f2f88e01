import type { BlockGeometry, HeatmapHit } from './heatmapGeometry.ts';

/** Arrows move one cell, Home/End a row's ends, Space flips the half; null for another key. */
export function moveHeatmapCursor(
  blocks: readonly Pick<BlockGeometry, 'block' | 'rows' | 'cols'>[],
  cursor: HeatmapHit | null,
  key: string,
): HeatmapHit | null {
  const order = blocks.filter((b) => b.rows > 0 && b.cols > 0);
  const first = order[0];
  if (!first) return null;
  if (!cursor) {
    return ['ArrowUp', 'ArrowDown', 'ArrowLeft', 'ArrowRight', 'Home', 'End', ' '].includes(key)
      ? { block: first.block, row: 0, col: 0, half: 'up' }
      : null;
  }
  const at = Math.max(
    0,
    order.findIndex((b) => b.block === cursor.block),
  );
  const block = order[at] ?? first;
  const clampRow = (row: number, b: typeof block) => Math.min(Math.max(row, 0), b.rows - 1);
  switch (key) {
    case 'ArrowUp':
      return { ...cursor, row: clampRow(cursor.row - 1, block) };
    case 'ArrowDown':
      return { ...cursor, row: clampRow(cursor.row + 1, block) };
    case 'ArrowRight': {
      if (cursor.col < block.cols - 1) return { ...cursor, col: cursor.col + 1 };
      const next = order[at + 1];
      return next ? { ...cursor, block: next.block, col: 0, row: clampRow(cursor.row, next) } : cursor;
    }
    case 'ArrowLeft': {
      if (cursor.col > 0) return { ...cursor, col: cursor.col - 1 };
      const prev = order[at - 1];
      return prev
        ? { ...cursor, block: prev.block, col: prev.cols - 1, row: clampRow(cursor.row, prev) }
        : cursor;
    }
    case 'Home':
      return { ...cursor, block: first.block, col: 0, row: clampRow(cursor.row, first) };
    case 'End': {
      const last = order[order.length - 1] ?? first;
      return { ...cursor, block: last.block, col: last.cols - 1, row: clampRow(cursor.row, last) };
    }
    case ' ':
      return { ...cursor, half: cursor.half === 'up' ? 'down' : 'up' };
    default:
      return null;
  }
}
