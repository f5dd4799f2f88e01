import { describe, expect, it } from 'vitest';
import { hitTest, LABEL_FONT_PX, layoutHeatmap } from './heatmapGeometry.ts';

const names = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `${prefix}${i + 1}`);

describe('layoutHeatmap', () => {
  // fat-tree-1152: 48 edge × 24 core switches, 24 host ports per edge, in a ~950 px panel.
  const g = layoutHeatmap({
    rows: names('edge', 48),
    islCols: names('core', 24),
    hostCols: names('', 24),
    width: 950,
  });

  it('places the ISL block and the host-port block side by side, inside the width', () => {
    expect(g.blocks.map((b) => [b.block, b.rows, b.cols])).toEqual([
      ['isl', 48, 24],
      ['host', 48, 24],
    ]);
    const [isl, host] = g.blocks;
    expect(host?.x).toBeGreaterThan((isl?.x ?? 0) + (isl?.width ?? 0));
    expect(g.width).toBeLessThanOrEqual(950);
    expect(g.height).toBe(Math.ceil((isl?.y ?? 0) + 48 * g.cellH + 4));
  });

  it('keeps every label of a 48 × 24 fabric readable: one per row and column, a line apart', () => {
    expect(g.cellW).toBeGreaterThanOrEqual(LABEL_FONT_PX);
    expect(g.cellH).toBeGreaterThanOrEqual(LABEL_FONT_PX);
    expect(g.rowLabels).toHaveLength(48);
    expect(g.rowLabels.map((l) => l.text).slice(0, 2)).toEqual(['edge1', 'edge2']);
    expect(g.colLabels.filter((l) => l.block === 'isl')).toHaveLength(24);
    expect(g.colLabels.filter((l) => l.block === 'host')).toHaveLength(24);
    // Row labels end left of the grid; core names stand upright above their columns.
    for (const l of g.rowLabels) expect(l.x).toBeLessThan(g.blocks[0]?.x ?? 0);
    expect(g.colLabels.find((l) => l.block === 'isl')?.vertical).toBe(true);
    expect(g.titles.map((t) => t.text)).toEqual([
      'edge switches (tier 1)',
      'ISLs to core switches (tier 2) →',
      'host ports: hosts (tier 0) by edge port →',
    ]);
    // Every title starts inside the canvas.
    for (const t of g.titles) expect(t.x).toBeGreaterThan(0);
  });

  it('thins labels when cells are smaller than a line of text', () => {
    const small = layoutHeatmap({
      rows: names('edge', 200),
      islCols: names('core', 100),
      hostCols: [],
      width: 500,
    });
    expect(small.cellH).toBeLessThan(LABEL_FONT_PX);
    expect(small.rowLabels.length).toBeLessThan(200);
    const pitch = (small.rowLabels[1]?.y ?? 0) - (small.rowLabels[0]?.y ?? 0);
    expect(pitch).toBeGreaterThanOrEqual(11);
    expect(small.blocks).toHaveLength(1);
  });

  it('refuses a width that is not positive', () => {
    expect(() => layoutHeatmap({ rows: [], islCols: [], hostCols: [], width: 0 })).toThrow(
      /width must be positive/,
    );
  });
});

describe('hitTest', () => {
  const g = layoutHeatmap({
    rows: names('edge', 4),
    islCols: names('core', 2),
    hostCols: ['1', '2', '3'],
    width: 400,
  });
  const isl = g.blocks[0];
  const host = g.blocks[1];
  if (!isl || !host) throw new Error('missing blocks');

  it('finds the cell and the half under the pointer: top-left is up, bottom-right is down', () => {
    const x = isl.x + g.cellW * 1;
    const y = isl.y + g.cellH * 2;
    expect(hitTest(g, x + 1, y + 1)).toEqual({ block: 'isl', row: 2, col: 1, half: 'up' });
    expect(hitTest(g, x + g.cellW - 1, y + g.cellH - 1)).toEqual({
      block: 'isl',
      row: 2,
      col: 1,
      half: 'down',
    });
    expect(hitTest(g, host.x + g.cellW * 2.9, host.y + g.cellH * 3.9)).toEqual({
      block: 'host',
      row: 3,
      col: 2,
      half: 'down',
    });
  });

  it('finds nothing on labels, between the blocks or past the edges', () => {
    expect(hitTest(g, 2, isl.y + 1)).toBeNull();
    expect(hitTest(g, isl.x + isl.width + 2, isl.y + 1)).toBeNull();
    expect(hitTest(g, isl.x + 1, isl.y - 1)).toBeNull();
    expect(hitTest(g, host.x + host.width, host.y + 1)).toBeNull();
    expect(hitTest(g, isl.x + 1, isl.y + isl.height)).toBeNull();
  });
});
