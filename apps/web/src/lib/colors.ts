import { interpolateHcl, piecewise } from 'd3-interpolate';
import { scaleSequential } from 'd3-scale';

/** Utilization colours: idle dark steel blue (not unknown's grey), teal at half, amber from 80 %, red. */
const RAMP = ['#3b6cb7', '#2f8f9d', '#7cc46a', '#f0b429', '#e5383b'];

export const utilizationScale = scaleSequential(piecewise(interpolateHcl, RAMP)).domain([0, 1]).clamp(true);

/** Colour of links whose utilization is unknown or stale (drawn dotted, theme.css --unknown). */
export const UNKNOWN_COLOR = '#7d8590';

/** Idle (solid), unknown (grey, dotted) and down (text colour, dashed, crossed; red is 100 %). */
export const LINK_STATES = ['idle', 'unknown', 'down'] as const;
export type LinkState = (typeof LINK_STATES)[number];

/** Steps whose colours are kept: adjacent ones are under one 8-bit unit apart on this ramp. */
export const COLOR_STEPS = 4096;
const stepColors: (string | undefined)[] = new Array(COLOR_STEPS + 1);

/** The colour of a utilization from precomputed steps: interpolating per cell per message is costly. */
export function utilizationColor(fraction: number | null | undefined): string {
  if (typeof fraction !== 'number' || !Number.isFinite(fraction)) return UNKNOWN_COLOR;
  const step = Math.round(Math.min(1, Math.max(0, fraction)) * COLOR_STEPS);
  const held = stepColors[step];
  if (held !== undefined) return held;
  const color = utilizationScale(step / COLOR_STEPS);
  stepColors[step] = color;
  return color;
}

export interface LegendStop {
  /** 0..1 position along the legend, also the utilization fraction. */
  offset: number;
  color: string;
}

/** Gradient stops for the legend, `count` ≥ 2 evenly spaced from 0 to 100 %. */
export function legendStops(count = 11): LegendStop[] {
  if (!Number.isInteger(count) || count < 2)
    throw new RangeError(`legendStops: count must be an integer ≥ 2, got ${count}`);
  return Array.from({ length: count }, (_, i) => {
    const offset = i / (count - 1);
    return { offset, color: utilizationScale(offset) };
  });
}

/** Legend tick fractions: 0, 25, 50, 75, 100 %. */
export const LEGEND_TICKS: readonly number[] = [0, 0.25, 0.5, 0.75, 1];
