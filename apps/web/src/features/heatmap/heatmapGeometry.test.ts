import fc from 'fast-check';
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

  it('never runs port numbers together ("10111213…" at 1280 px): each clears the next', () => {
    // The fabric panel at a 1280 px window is about 800 px wide: 15 px columns.
    const narrow = layoutHeatmap({
      rows: names('edge', 48),
      islCols: names('core', 24),
      hostCols: names('', 24),
      width: 800,
    });
    const host = narrow.colLabels.filter((l) => l.block === 'host');
    expect(host.length).toBeLessThan(24);
    expect(host.map((l) => l.text).slice(0, 3)).toEqual(['1', '3', '5']);
    fc.assert(
      fc.property(
        fc.integer({ min: 200, max: 2400 }),
        fc.integer({ min: 1, max: 64 }),
        fc.integer({ min: 0, max: 64 }),
        (width, hostCount, islCount) => {
          const geometry = layoutHeatmap({
            rows: names('edge', 24),
            islCols: names('core', islCount),
            hostCols: names('', hostCount),
            width,
          });
          const flat = geometry.colLabels.filter((l) => !l.vertical);
          for (let i = 1; i < flat.length; i++) {
            const a = flat[i - 1];
            const b = flat[i];
            if (!a || !b) continue;
            // Budgeted at 6.6 px a character, centred on their columns, 3 px apart at least.
            const gap = b.x - (b.text.length * 6.6) / 2 - (a.x + (a.text.length * 6.6) / 2);
            expect(gap).toBeGreaterThanOrEqual(3 - 1e-9);
          }
          // Upright labels (core names) are a line of text apart.
          const upright = geometry.colLabels.filter((l) => l.vertical);
          for (let i = 1; i < upright.length; i++)
            expect((upright[i]?.x ?? 0) - (upright[i - 1]?.x ?? 0)).toBeGreaterThanOrEqual(LABEL_FONT_PX);
        },
      ),
    );
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
