import type { TwoTierMatrix } from '../../lib/fabricMatrix.ts';
import { CONGESTED_WAIT } from '../../lib/linkHealth.ts';
import { blockChannels, maxUtilization } from './heatmapCells.ts';
import {
  type HeatmapGeometry,
  type HeatmapHit,
  hitTest,
  LABEL_FONT_PX,
  type Label,
} from './heatmapGeometry.ts';
import {
  anyAtLeast,
  anyIn,
  type CellMarks,
  cellKey,
  colorOf,
  DOWN_CELL,
  drawMarks,
  EMPTY_CELL,
  RAMP_STEPS,
  stepOf,
  type ThemeColors,
  themed,
  UNDRAWN,
} from './heatmapPaint.ts';

/** The canvas island behind FabricHeatmap: paints the placed cells and hit-tests the pointer. */

export interface HeatmapPaint {
  geometry: HeatmapGeometry;
  matrix: TwoTierMatrix;
  /** Per channel, from the compact stream; null before the first message. */
  utilization: ArrayLike<number | null> | null;
  /** Channels to outline (the selected route); null for none. */
  marked: ReadonlySet<number> | null;
  /** Channels whose link is down: crossed out. */
  down: ReadonlySet<number>;
  /** XmitWait share per channel (compact stream); cells waiting ≥ CONGESTED_WAIT get a ring. */
  wait?: ArrayLike<number | null> | null;
  /** Channels with errors (compact stream `errors`): a magenta diamond, distinct from the colour. */
  errors?: ReadonlySet<number>;
  hover: HeatmapHit | null;
  /** Accessible name of the canvas, and the id of the element describing it. */
  label: string;
  describedBy: string;
}

const FONT = `${LABEL_FONT_PX}px system-ui, -apple-system, "Segoe UI", Roboto, sans-serif`;

export class HeatmapCanvas {
  private readonly canvas: HTMLCanvasElement;
  private paint: HeatmapPaint | null = null;
  private lastHit = '';
  /** Each cell's key when last drawn and that drawing's inputs: while they stay, changed cells redraw. */
  private keys: Int32Array[] = [];
  private drawn: {
    paint: Omit<HeatmapPaint, 'utilization' | 'down' | 'wait' | 'errors'>;
    theme: string;
    dpr: number;
  } | null = null;

  constructor(
    container: HTMLElement,
    private readonly onHover: (hit: HeatmapHit | null) => void,
  ) {
    this.canvas = document.createElement('canvas');
    this.canvas.className = 'heatmap-canvas';
    this.canvas.setAttribute('role', 'img');
    this.canvas.addEventListener('pointermove', this.move);
    this.canvas.addEventListener('pointerleave', this.leave);
    container.appendChild(this.canvas);
  }

  update(paint: HeatmapPaint): void {
    this.paint = paint;
    this.canvas.setAttribute('aria-label', paint.label);
    this.canvas.setAttribute('aria-describedby', paint.describedBy);
    this.draw();
  }

  dispose(): void {
    this.canvas.removeEventListener('pointermove', this.move);
    this.canvas.removeEventListener('pointerleave', this.leave);
    this.canvas.remove();
    this.paint = null;
  }

  private readonly move = (event: PointerEvent): void => {
    if (!this.paint) return;
    const box = this.canvas.getBoundingClientRect();
    const hit = hitTest(this.paint.geometry, event.clientX - box.left, event.clientY - box.top);
    const key = hit ? `${hit.block}:${hit.row}:${hit.col}:${hit.half}` : '';
    if (key === this.lastHit) return;
    this.lastHit = key;
    this.onHover(hit);
  };

  private readonly leave = (): void => {
    if (this.lastHit === '') return;
    this.lastHit = '';
    this.onHover(null);
  };

  private draw(): void {
    const themeColors = themed();
    const paint = this.paint;
    if (!paint) return;
    const g = paint.geometry;
    const dpr = window.devicePixelRatio || 1;
    const resized = this.resize(g, dpr);
    const ctx = this.canvas.getContext('2d');
    if (!ctx) return;
    const theme = Object.values(themeColors).join();
    const whole = resized || this.changedBesidesData(paint, theme, dpr);
    this.drawn = { paint, theme, dpr };
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    if (whole) {
      ctx.clearRect(0, 0, g.width, g.height);
      this.keys = g.blocks.map((b) => new Int32Array(b.rows * b.cols).fill(UNDRAWN));
    }
    const marks = this.paintCells(ctx, paint, whole, themeColors);
    drawMarks(ctx, g, marks, themeColors.DOWN);
    if (whole) drawLabels(ctx, g, paint.hover, themeColors);
  }

  /** Sizes the canvas for the geometry at `dpr`; whether its size changed. */
  private resize(g: HeatmapGeometry, dpr: number): boolean {
    const w = Math.round(g.width * dpr);
    const h = Math.round(g.height * dpr);
    if (this.canvas.width === w && this.canvas.height === h) return false;
    this.canvas.width = w;
    this.canvas.height = h;
    this.canvas.style.width = `${g.width}px`;
    this.canvas.style.height = `${g.height}px`;
    return true;
  }

  /** Whether all must be redrawn: anything but the data changed, or a route is outlined. */
  private changedBesidesData(paint: HeatmapPaint, theme: string, dpr: number): boolean {
    const last = this.drawn?.paint;
    return (
      !last ||
      this.drawn?.theme !== theme ||
      this.drawn?.dpr !== dpr ||
      last.geometry !== paint.geometry ||
      last.matrix !== paint.matrix ||
      last.marked !== paint.marked ||
      (paint.marked !== null && paint.marked.size > 0) ||
      last.hover !== paint.hover ||
      last.label !== paint.label
    );
  }

  /** Paints the cells whose key changed (every cell when `whole`); the cells to mark after. */
  private paintCells(
    ctx: CanvasRenderingContext2D,
    paint: HeatmapPaint,
    whole: boolean,
    { EMPTY, DOWN_FILL }: ThemeColors,
  ): CellMarks {
    const { geometry: g, matrix, utilization, marked, down: downLinks } = paint;
    const marks: CellMarks = { outlined: [], crossed: [], waiting: [], failing: [] };
    const gap = g.cellW >= 6 && g.cellH >= 6 ? 1 : 0;
    g.blocks.forEach((b, blockIndex) => {
      const keys = this.keys[blockIndex];
      if (!keys) return;
      // The cells' channels as lists made once per matrix (row-major, as the block's cells).
      const lists = blockChannels(matrix, b.block);
      for (let row = 0; row < b.rows; row++) {
        for (let col = 0; col < b.cols; col++) {
          const x0 = b.x + col * g.cellW;
          const y0 = b.y + row * g.cellH;
          const x1 = x0 + g.cellW - gap;
          const y1 = y0 + g.cellH - gap;
          const cell = row * b.cols + col;
          const upChannels = lists.up[cell];
          const downChannels = lists.down[cell];
          let key: number;
          let up = RAMP_STEPS;
          let down = RAMP_STEPS;
          let waits = false;
          let fails = false;
          if (!upChannels || !downChannels) key = EMPTY_CELL;
          else if (anyIn(downLinks, upChannels, downChannels)) key = DOWN_CELL;
          else {
            waits = !!paint.wait && anyAtLeast(paint.wait, upChannels, downChannels, CONGESTED_WAIT);
            fails = !!paint.errors && anyIn(paint.errors, upChannels, downChannels);
            up = utilization ? stepOf(maxUtilization(upChannels, utilization)) : RAMP_STEPS;
            down = utilization ? stepOf(maxUtilization(downChannels, utilization)) : RAMP_STEPS;
            key = cellKey(up, down, waits, fails);
          }
          if (upChannels && downChannels && anyIn(marked, upChannels, downChannels))
            marks.outlined.push([x0, y0]);
          if (keys[cell] === key) continue;
          keys[cell] = key;
          if (!whole) ctx.clearRect(x0, y0, g.cellW, g.cellH);
          if (key === EMPTY_CELL) {
            ctx.fillStyle = EMPTY;
            ctx.fillRect(x0, y0, x1 - x0, y1 - y0);
            continue;
          }
          if (key === DOWN_CELL) {
            marks.crossed.push([x0, y0]);
            ctx.fillStyle = DOWN_FILL;
            ctx.fillRect(x0, y0, x1 - x0, y1 - y0);
            continue;
          }
          if (waits) marks.waiting.push([x0, y0]);
          if (fails) marks.failing.push([x0, y0]);
          // Bottom-right triangle: down; top-left triangle: up (edge → core, host → edge). The
          // cell is filled whole first, so a cell with equal directions shows no seam.
          ctx.fillStyle = colorOf(down);
          ctx.fillRect(x0, y0, x1 - x0, y1 - y0);
          if (colorOf(up) === colorOf(down)) continue;
          ctx.fillStyle = colorOf(up);
          ctx.beginPath();
          ctx.moveTo(x0, y0);
          ctx.lineTo(x1, y0);
          ctx.lineTo(x0, y1);
          ctx.closePath();
          ctx.fill();
        }
      }
    });
    return marks;
  }
}

/** The row and column labels (the hovered cell's stand out, as a crosshair would), titles and hover box. */
function drawLabels(
  ctx: CanvasRenderingContext2D,
  g: HeatmapGeometry,
  hover: HeatmapHit | null,
  { TEXT, TITLE, HOVER_TEXT }: ThemeColors,
): void {
  ctx.font = FONT;
  ctx.textBaseline = 'middle';
  for (const label of g.rowLabels) drawText(ctx, label, label.index === hover?.row ? HOVER_TEXT : TEXT);
  for (const label of g.colLabels) {
    const hovered = label.block === hover?.block && label.index === hover?.col;
    drawText(ctx, label, hovered ? HOVER_TEXT : TEXT);
  }
  ctx.font = `600 ${FONT}`;
  for (const label of g.titles) drawText(ctx, label, TITLE);
  if (!hover) return;
  const b = g.blocks.find((x) => x.block === hover.block);
  if (!b) return;
  ctx.strokeStyle = '#ffffff';
  ctx.lineWidth = 1.5;
  ctx.strokeRect(b.x + hover.col * g.cellW - 0.5, b.y + hover.row * g.cellH - 0.5, g.cellW, g.cellH);
}

function drawText(ctx: CanvasRenderingContext2D, label: Label, color: string): void {
  ctx.fillStyle = color;
  if (label.vertical) {
    ctx.save();
    ctx.translate(label.x, label.y);
    ctx.rotate(-Math.PI / 2);
    ctx.textAlign = label.align === 'center' ? 'center' : 'left';
    ctx.fillText(label.text, 0, 0);
    ctx.restore();
    return;
  }
  ctx.textAlign = label.align;
  ctx.fillText(label.text, label.x, label.y);
}
