import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { HeatmapHit } from './heatmapGeometry.ts';
import { moveHeatmapCursor } from './heatmapKeys.ts';

// 48 edge rows × 24 core columns, then 48 rows × 24 host ports (fat-tree-1152).
const blocks = [
  { block: 'isl' as const, rows: 48, cols: 24 },
  { block: 'host' as const, rows: 48, cols: 24 },
];

describe('moveHeatmapCursor', () => {
  it('starts at the first cell on the first arrow, and ignores other keys', () => {
    expect(moveHeatmapCursor(blocks, null, 'ArrowDown')).toEqual({
      block: 'isl',
      row: 0,
      col: 0,
      half: 'up',
    });
    expect(moveHeatmapCursor(blocks, null, 'x')).toBeNull();
  });

  it('crosses from the ISL matrix into the host ports and back', () => {
    const edge: HeatmapHit = { block: 'isl', row: 5, col: 23, half: 'up' };
    const inHosts = moveHeatmapCursor(blocks, edge, 'ArrowRight');
    expect(inHosts).toEqual({ block: 'host', row: 5, col: 0, half: 'up' });
    expect(moveHeatmapCursor(blocks, inHosts, 'ArrowLeft')).toEqual(edge);
  });

  it('flips the half with Space', () => {
    expect(moveHeatmapCursor(blocks, { block: 'isl', row: 0, col: 0, half: 'up' }, ' ')?.half).toBe('down');
  });

  it('reaches every cell and half, and never leaves the grid', () => {
    const keys = fc.constantFrom('ArrowUp', 'ArrowDown', 'ArrowLeft', 'ArrowRight', 'Home', 'End', ' ');
    fc.assert(
      fc.property(fc.array(keys, { maxLength: 200 }), (presses) => {
        let cursor: HeatmapHit | null = null;
        for (const key of presses) cursor = moveHeatmapCursor(blocks, cursor, key) ?? cursor;
        if (!cursor) return presses.length === 0;
        const b = blocks.find((x) => x.block === cursor?.block);
        return !!b && cursor.row >= 0 && cursor.row < b.rows && cursor.col >= 0 && cursor.col < b.cols;
      }),
    );
    // Every cell: row by row, left to right across both blocks.
    const seen = new Set<string>();
    let cursor = moveHeatmapCursor(blocks, null, 'Home');
    for (let row = 0; row < 48; row++) {
      cursor = moveHeatmapCursor(blocks, cursor, 'Home');
      for (let i = 0; i < 48; i++) {
        if (cursor) seen.add(`${cursor.block}:${cursor.row}:${cursor.col}`);
        cursor = moveHeatmapCursor(blocks, cursor, 'ArrowRight');
      }
      cursor = moveHeatmapCursor(blocks, cursor, 'ArrowDown');
    }
    expect(seen.size).toBe(48 * 48);
  });
});
