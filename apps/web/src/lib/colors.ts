import { interpolateHcl, piecewise } from 'd3-interpolate';
import { scaleSequential } from 'd3-scale';

/**
 * Utilization colours over 0..1: idle a dark steel blue (so the eye goes to busy links, yet not the
 * grey of unknown), teal at half load, amber from 80 %, red when saturated.
 */
const RAMP = ['#3b6cb7', '#2f8f9d', '#7cc46a', '#f0b429', '#e5383b'];

export const utilizationScale = scaleSequential(piecewise(interpolateHcl, RAMP)).domain([0, 1]).clamp(true);

/** Colour of links whose utilization is unknown or stale (drawn dotted, theme.css --unknown). */
export const UNKNOWN_COLOR = '#7d8590';

/**
 * The three states a link's colour must never confuse (the legend shows them side by side): idle
 * (0 %, the ramp's first colour, solid), unknown or stale (grey, dotted), down (the text colour,
 * dashed and crossed out: not red, which is 100 %).
 */
export const LINK_STATES = ['idle', 'unknown', 'down'] as const;
export type LinkState = (typeof LINK_STATES)[number];

/**
 * Steps of 0..1 whose colours utilizationColor keeps: adjacent steps are less than one unit of
 * 8-bit rgb apart on this ramp, so a colour read from its step is the scale's own or one unit off.
 */
export const COLOR_STEPS = 4096;
const stepColors: (string | undefined)[] = new Array(COLOR_STEPS + 1);

/**
 * The scale's colour of a utilization (0..1; unknown grey), from COLOR_STEPS colours made once
 * each: thousands of cells are coloured every message and the interpolation is costly.
 */
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
