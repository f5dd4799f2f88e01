import { UNKNOWN_COLOR, utilizationColor } from '../../lib/colors.ts';
import { CONGESTED_WAIT } from '../../lib/congestion.ts';
import { blockChannels, maxUtilization, type TwoTierMatrix } from '../../lib/fabricMatrix.ts';
import { themeColor } from '../../lib/themeColor.ts';
import {
  type HeatmapGeometry,
  type HeatmapHit,
  hitTest,
  LABEL_FONT_PX,
  type Label,
} from './heatmapGeometry.ts';

/**
 * The imperative island behind FabricHeatmap: it owns one <canvas> inside a container React
 * leaves empty, paints the cells the pure geometry placed, and reports the cell under the pointer.
 * React never renders into the container; this class never touches anything outside it.
 */

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

/** The utilization scale sampled at 256 steps: a lookup per cell, not an interpolation. */
const RAMP_STEPS = 256;
const RAMP = Array.from({ length: RAMP_STEPS }, (_, i) => utilizationColor(i / (RAMP_STEPS - 1)));

/** The ramp step of a utilization, RAMP_STEPS for unknown. */
function stepOf(u: number | null): number {
  if (u === null || Number.isNaN(u)) return RAMP_STEPS;
  return Math.round(Math.min(1, Math.max(0, u)) * (RAMP_STEPS - 1));
}

function colorOf(step: number): string {
  return RAMP[step] ?? UNKNOWN_COLOR;
}

/** What a cell shows, as one number: its two colours and its marks (a cell drawn alike is not drawn again). */
const EMPTY_CELL = -1;
const DOWN_CELL = -2;
const UNDRAWN = -3;
function cellKey(up: number, down: number, waiting: boolean, failing: boolean): number {
  return ((up * (RAMP_STEPS + 1) + down) * 2 + (waiting ? 1 : 0)) * 2 + (failing ? 1 : 0);
}

// Text and empty cells follow the theme (read once per frame); data colours stay the same.
const themed = () => ({
  TEXT: themeColor('--muted', '#9aa4b2'),
  TITLE: themeColor('--text', '#c9d1d9'),
  HOVER_TEXT: themeColor('--text', '#ffffff'),
  EMPTY: themeColor('--panel-2', '#1c2230'),
  // A link down: the cell emptied to the page's background and crossed out in the text colour
  // (theme.css --down), never the red of 100 % (the legend shows idle, unknown and down apart).
  DOWN: themeColor('--down', '#f0f6fc'),
  DOWN_FILL: themeColor('--bg', '#0d1117'),
});
const ROUTE = '#ffffff';
const ROUTE_HALO = '#000000';
const WAIT = '#f5f7fa';
const ERROR = '#d63384';

function anyAtLeast(
  values: ArrayLike<number | null>,
  a: readonly number[],
  b: readonly number[],
  min: number,
) {
  for (const c of a) if ((values[c] ?? -1) >= min) return true;
  for (const c of b) if ((values[c] ?? -1) >= min) return true;
  return false;
}

function anyIn(set: ReadonlySet<number> | null, a: readonly number[], b: readonly number[]): boolean {
  if (!set || set.size === 0) return false;
  for (const c of a) if (set.has(c)) return true;
  for (const c of b) if (set.has(c)) return true;
  return false;
}
const FONT = `${LABEL_FONT_PX}px system-ui, -apple-system, "Segoe UI", Roboto, sans-serif`;

export class HeatmapCanvas {
  private readonly canvas: HTMLCanvasElement;
  private paint: HeatmapPaint | null = null;
  private lastHit = '';
  /**
   * What each cell showed when last drawn (cellKey), per block; with `drawn`, the inputs of that
   * drawing besides the data: while they stay, a tick redraws only the cells whose key changed.
   */
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
    const { TEXT, TITLE, HOVER_TEXT, EMPTY, DOWN, DOWN_FILL } = themeColors;
    const paint = this.paint;
    if (!paint) return;
    const { geometry: g, matrix, utilization, marked, down: downLinks, hover } = paint;
    const outlined: [number, number][] = [];
    const crossed: [number, number][] = [];
    const waiting: [number, number][] = [];
    const failing: [number, number][] = [];
    const dpr = window.devicePixelRatio || 1;
    const w = Math.round(g.width * dpr);
    const h = Math.round(g.height * dpr);
    const resized = this.canvas.width !== w || this.canvas.height !== h;
    if (resized) {
      this.canvas.width = w;
      this.canvas.height = h;
      this.canvas.style.width = `${g.width}px`;
      this.canvas.style.height = `${g.height}px`;
    }
    const ctx = this.canvas.getContext('2d');
    if (!ctx) return;
    // Everything is drawn again when anything but the data changed (size, cells, route, hover,
    // labels, theme) or a route is outlined (its outline reaches into the neighbouring cells);
    // otherwise only the cells whose colours or marks changed.
    const theme = Object.values(themeColors).join();
    const last = this.drawn?.paint;
    const whole =
      resized ||
      !last ||
      this.drawn?.theme !== theme ||
      this.drawn?.dpr !== dpr ||
      last.geometry !== g ||
      last.matrix !== matrix ||
      last.marked !== marked ||
      (marked !== null && marked.size > 0) ||
      last.hover !== hover ||
      last.label !== paint.label;
    this.drawn = { paint, theme, dpr };
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    if (whole) {
      ctx.clearRect(0, 0, g.width, g.height);
      this.keys = g.blocks.map((b) => new Int32Array(b.rows * b.cols).fill(UNDRAWN));
    }

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
          if (upChannels && downChannels && anyIn(marked, upChannels, downChannels)) outlined.push([x0, y0]);
          if (keys[cell] === key) continue;
          keys[cell] = key;
          if (!whole) ctx.clearRect(x0, y0, g.cellW, g.cellH);
          if (key === EMPTY_CELL) {
            ctx.fillStyle = EMPTY;
            ctx.fillRect(x0, y0, x1 - x0, y1 - y0);
            continue;
          }
          if (key === DOWN_CELL) {
            crossed.push([x0, y0]);
            ctx.fillStyle = DOWN_FILL;
            ctx.fillRect(x0, y0, x1 - x0, y1 - y0);
            continue;
          }
          if (waits) waiting.push([x0, y0]);
          if (fails) failing.push([x0, y0]);
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

    // Marks over the cells: down links crossed out, the selected route's cells outlined.
    if (crossed.length > 0) {
      ctx.strokeStyle = DOWN;
      ctx.lineWidth = 1.5;
      ctx.beginPath();
      for (const [x, y] of crossed) {
        ctx.moveTo(x + 1, y + 1);
        ctx.lineTo(x + g.cellW - 2, y + g.cellH - 2);
        ctx.moveTo(x + g.cellW - 2, y + 1);
        ctx.lineTo(x + 1, y + g.cellH - 2);
      }
      ctx.stroke();
    }
    // Congestion: a ring at the cell's centre; errors: a diamond in its top-right corner.
    const r = Math.max(1.5, Math.min(g.cellW, g.cellH) / 5);
    if (waiting.length > 0) {
      ctx.strokeStyle = WAIT;
      ctx.lineWidth = 1;
      ctx.beginPath();
      for (const [x, y] of waiting) {
        ctx.moveTo(x + g.cellW / 2 + r, y + g.cellH / 2);
        ctx.arc(x + g.cellW / 2, y + g.cellH / 2, r, 0, 2 * Math.PI);
      }
      ctx.stroke();
    }
    if (failing.length > 0) {
      ctx.fillStyle = ERROR;
      ctx.beginPath();
      for (const [x, y] of failing) {
        const cx = x + g.cellW - r - 1;
        const cy = y + r + 1;
        ctx.moveTo(cx, cy - r);
        ctx.lineTo(cx + r, cy);
        ctx.lineTo(cx, cy + r);
        ctx.lineTo(cx - r, cy);
        ctx.closePath();
      }
      ctx.fill();
    }
    if (outlined.length > 0) {
      // Two tones, so the outline shows on every colour of the ramp (a blue line alone vanished
      // on idle blue cells): a dark halo, then the route colour inside it.
      ctx.strokeStyle = ROUTE_HALO;
      ctx.lineWidth = 4;
      for (const [x, y] of outlined) ctx.strokeRect(x - 1.5, y - 1.5, g.cellW + 2, g.cellH + 2);
      ctx.strokeStyle = ROUTE;
      ctx.lineWidth = 2;
      for (const [x, y] of outlined) ctx.strokeRect(x - 1.5, y - 1.5, g.cellW + 2, g.cellH + 2);
    }

    if (!whole) return;
    ctx.font = FONT;
    ctx.textBaseline = 'middle';
    // The hovered cell's row and column labels stand out, as a crosshair would.
    for (const label of g.rowLabels) this.text(ctx, label, label.index === hover?.row ? HOVER_TEXT : TEXT);
    for (const label of g.colLabels) {
      const hovered = label.block === hover?.block && label.index === hover?.col;
      this.text(ctx, label, hovered ? HOVER_TEXT : TEXT);
    }
    ctx.font = `600 ${FONT}`;
    for (const label of g.titles) this.text(ctx, label, TITLE);

    if (hover) {
      const b = g.blocks.find((x) => x.block === hover.block);
      if (b) {
        ctx.strokeStyle = '#ffffff';
        ctx.lineWidth = 1.5;
        ctx.strokeRect(b.x + hover.col * g.cellW - 0.5, b.y + hover.row * g.cellH - 0.5, g.cellW, g.cellH);
      }
    }
  }

  private text(ctx: CanvasRenderingContext2D, label: Label, color: string): void {
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
}
