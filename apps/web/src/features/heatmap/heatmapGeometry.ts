import type { Block, Half } from './heatmapCells.ts';

/** Pure geometry of the two-tier heatmap in CSS pixels, so the hit test is tested without a browser. */

export interface HeatmapInput {
  rows: readonly string[];
  islCols: readonly string[];
  hostCols: readonly string[];
  /** Width available, in CSS px. */
  width: number;
  /** Height the cell rows should not exceed, when cells can shrink (default 620). */
  maxGridHeight?: number;
}

export interface BlockGeometry {
  block: Block;
  x: number;
  y: number;
  cols: number;
  rows: number;
  width: number;
  height: number;
}

export interface Label {
  text: string;
  x: number;
  y: number;
  /** Drawn rotated by -90° (reading upwards), anchored at its start (`left`) or middle (`center`). */
  vertical: boolean;
  align: 'left' | 'right' | 'center';
  /** Row (row labels) or column (column labels) the label names; -1 for titles. */
  index: number;
  block?: Block;
}

export interface HeatmapGeometry {
  width: number;
  height: number;
  cellW: number;
  cellH: number;
  blocks: BlockGeometry[];
  rowLabels: Label[];
  colLabels: Label[];
  titles: Label[];
}

export interface HeatmapHit {
  block: Block;
  row: number;
  col: number;
  half: Half;
}

/** Font size of the axis labels, and the width a character is budgeted at that size. */
export const LABEL_FONT_PX = 11;
const CHAR_W = 6.6;
const TITLE_H = 18;
const BLOCK_GAP = 22;
const RIGHT_PAD = 4;
const MIN_LABEL_PITCH = 11;
/** Left gutter holding the rows' axis title, upright. */
const GUTTER = 18;

const textWidth = (text: string): number => Math.ceil(text.length * CHAR_W);
const clamp = (v: number, lo: number, hi: number): number => Math.min(hi, Math.max(lo, v));

/** Every n-th label when cells are narrower than a line of text. */
function labelStep(pitch: number): number {
  return pitch >= MIN_LABEL_PITCH ? 1 : Math.ceil(MIN_LABEL_PITCH / Math.max(1, pitch));
}

/** Space between two horizontal labels, so "10" and "11" never read as "1011". */
const LABEL_GAP = 3;

/** Every n-th of a row of labels, so the widest, centred on its column, clears the next by LABEL_GAP. */
function horizontalLabelStep(pitch: number, labels: readonly string[]): number {
  const widest = Math.max(0, ...labels.map(textWidth));
  return Math.max(labelStep(pitch), Math.ceil((widest + LABEL_GAP) / Math.max(1, pitch)));
}

export function layoutHeatmap(input: HeatmapInput): HeatmapGeometry {
  const { rows, islCols, hostCols } = input;
  if (!(input.width > 0)) throw new RangeError(`layoutHeatmap: width must be positive, got ${input.width}`);
  const rowLabelW = GUTTER + Math.max(textWidth('edge'), ...rows.map(textWidth)) + 8;
  const blocksWanted = (islCols.length > 0 ? 1 : 0) + (hostCols.length > 0 ? 1 : 0);
  const gaps = Math.max(0, blocksWanted - 1) * BLOCK_GAP;
  const columns = Math.max(1, islCols.length + hostCols.length);
  const cellW = clamp(Math.floor((input.width - rowLabelW - gaps - RIGHT_PAD) / columns), 3, 32);
  const maxGrid = input.maxGridHeight ?? 620;
  const cellH = clamp(Math.floor(Math.min(cellW * 0.8, maxGrid / Math.max(1, rows.length))), 3, 22);

  // Core names stand upright above their columns; port numbers fit horizontally.
  const islLabelH = islCols.length > 0 ? Math.max(...islCols.map(textWidth)) + 4 : 0;
  const colLabelH = Math.max(islLabelH, LABEL_FONT_PX + 4);
  const gridY = TITLE_H + colLabelH + 4;

  const blocks: BlockGeometry[] = [];
  let x = rowLabelW;
  for (const [block, cols] of [
    ['isl', islCols.length],
    ['host', hostCols.length],
  ] as const) {
    if (cols === 0) continue;
    blocks.push({
      block,
      x,
      y: gridY,
      cols,
      rows: rows.length,
      width: cols * cellW,
      height: rows.length * cellH,
    });
    x += cols * cellW + BLOCK_GAP;
  }

  const rowStep = labelStep(cellH);
  const rowLabels: Label[] = [];
  rows.forEach((text, r) => {
    if (r % rowStep !== 0) return;
    rowLabels.push({
      text,
      x: rowLabelW - 6,
      y: gridY + r * cellH + cellH / 2,
      vertical: false,
      align: 'right',
      index: r,
    });
  });

  const colLabels: Label[] = [];
  const titles: Label[] = [
    {
      text: 'edge switches (tier 1)',
      x: GUTTER / 2 + 2,
      y: gridY + (rows.length * cellH) / 2,
      vertical: true,
      align: 'center',
      index: -1,
    },
  ];
  for (const b of blocks) {
    const names = b.block === 'isl' ? islCols : hostCols;
    // Core names stand upright (a line of text apart); port numbers lie flat (their width apart).
    const colStep = b.block === 'isl' ? labelStep(cellW) : horizontalLabelStep(cellW, names);
    names.forEach((text, c) => {
      if (c % colStep !== 0) return;
      const cx = b.x + c * cellW + cellW / 2;
      colLabels.push(
        b.block === 'isl'
          ? { text, x: cx, y: gridY - 4, vertical: true, align: 'left', index: c, block: b.block }
          : {
              text,
              x: cx,
              y: gridY - 4 - LABEL_FONT_PX / 2,
              vertical: false,
              align: 'center',
              index: c,
              block: b.block,
            },
      );
    });
    titles.push({
      text:
        b.block === 'isl' ? 'ISLs to core switches (tier 2) →' : 'host ports: hosts (tier 0) by edge port →',
      x: b.x,
      y: TITLE_H - 5,
      vertical: false,
      align: 'left',
      index: -1,
    });
  }

  const right = blocks.reduce((m, b) => Math.max(m, b.x + b.width), rowLabelW);
  const lastTitle = titles[titles.length - 1];
  const titleRight = lastTitle ? lastTitle.x + textWidth(lastTitle.text) : 0;
  return {
    width: Math.ceil(Math.max(right, titleRight) + RIGHT_PAD),
    height: Math.ceil(gridY + rows.length * cellH + 4),
    cellW,
    cellH,
    blocks,
    rowLabels,
    colLabels,
    titles,
  };
}

/** The cell half under a pointer at (x, y) in CSS px, or null outside every block. */
export function hitTest(geometry: HeatmapGeometry, x: number, y: number): HeatmapHit | null {
  for (const b of geometry.blocks) {
    if (x < b.x || y < b.y || x >= b.x + b.width || y >= b.y + b.height) continue;
    const col = Math.floor((x - b.x) / geometry.cellW);
    const row = Math.floor((y - b.y) / geometry.cellH);
    const u = (x - b.x - col * geometry.cellW) / geometry.cellW;
    const v = (y - b.y - row * geometry.cellH) / geometry.cellH;
    return { block: b.block, row, col, half: u + v < 1 ? 'up' : 'down' };
  }
  return null;
}
