import { UNKNOWN_COLOR, utilizationColor } from '../../lib/colors.ts';
import { themeColor } from '../../lib/themeColor.ts';
import type { HeatmapGeometry } from './heatmapGeometry.ts';

/** How a heatmap cell is coloured and marked on the canvas (HeatmapCanvas draws with these). */

/** The utilization scale sampled at 256 steps: a lookup per cell, not an interpolation. */
export const RAMP_STEPS = 256;
const RAMP = Array.from({ length: RAMP_STEPS }, (_, i) => utilizationColor(i / (RAMP_STEPS - 1)));

/** The ramp step of a utilization, RAMP_STEPS for unknown. */
export function stepOf(u: number | null): number {
  if (u === null || Number.isNaN(u)) return RAMP_STEPS;
  return Math.round(Math.min(1, Math.max(0, u)) * (RAMP_STEPS - 1));
}

export function colorOf(step: number): string {
  return RAMP[step] ?? UNKNOWN_COLOR;
}

/** What a cell shows, as one number: its colours and marks (a cell drawn alike is not drawn again). */
export const EMPTY_CELL = -1;
export const DOWN_CELL = -2;
export const UNDRAWN = -3;
export function cellKey(up: number, down: number, waiting: boolean, failing: boolean): number {
  return ((up * (RAMP_STEPS + 1) + down) * 2 + (waiting ? 1 : 0)) * 2 + (failing ? 1 : 0);
}

/** The canvas's colours that follow the theme. */
export interface ThemeColors {
  TEXT: string;
  TITLE: string;
  HOVER_TEXT: string;
  EMPTY: string;
  DOWN: string;
  DOWN_FILL: string;
}

// Text and empty cells follow the theme (read once per frame); data colours stay the same.
export const themed = (): ThemeColors => ({
  TEXT: themeColor('--muted', '#9aa4b2'),
  TITLE: themeColor('--text', '#c9d1d9'),
  HOVER_TEXT: themeColor('--text', '#ffffff'),
  EMPTY: themeColor('--panel-2', '#1c2230'),
  // A down link is crossed out in the text colour, never the red of 100 %.
  DOWN: themeColor('--down', '#f0f6fc'),
  DOWN_FILL: themeColor('--bg', '#0d1117'),
});
const ROUTE = '#ffffff';
const ROUTE_HALO = '#000000';
const WAIT = '#f5f7fa';
const ERROR = '#d63384';

export function anyAtLeast(
  values: ArrayLike<number | null>,
  a: readonly number[],
  b: readonly number[],
  min: number,
) {
  for (const c of a) if ((values[c] ?? -1) >= min) return true;
  for (const c of b) if ((values[c] ?? -1) >= min) return true;
  return false;
}

export function anyIn(set: ReadonlySet<number> | null, a: readonly number[], b: readonly number[]): boolean {
  if (!set || set.size === 0) return false;
  for (const c of a) if (set.has(c)) return true;
  for (const c of b) if (set.has(c)) return true;
  return false;
}

/** Cells' top-left corners, by the mark they get over their colour. */
export interface CellMarks {
  outlined: [number, number][];
  crossed: [number, number][];
  waiting: [number, number][];
  failing: [number, number][];
}

/** The marks over the cells: down links crossed out, congestion, errors, the route outlined. */
export function drawMarks(
  ctx: CanvasRenderingContext2D,
  g: HeatmapGeometry,
  { outlined, crossed, waiting, failing }: CellMarks,
  DOWN: string,
): void {
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
}
