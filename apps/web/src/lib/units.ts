/**
 * Rates as people read them: SI-scaled (k, M, G, T, P: powers of 1000) so the number has at most
 * three digits before the point ("45.67 TB/s", never "45673.88 GB/s"), in bytes or bits per second
 * (the field uses both: opatop and iperf print GB/s and Gb/s), and counts with digit grouping
 * ("13,824"). Unknown is an em dash, never 0.
 */
import { MISSING } from './format.ts';

/** Bytes per second (GB/s, as opatop) or bits per second (Gb/s, as link rates and iperf). */
export type RateUnit = 'bytes' | 'bits';

const PREFIXES = ['', 'k', 'M', 'G', 'T', 'P', 'E'] as const;

function finite(value: number | null | undefined): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}

export interface ScaledRate {
  /** The number to print, e.g. "45.67". */
  value: string;
  /** Its unit, e.g. "TB/s". */
  unit: string;
}

/**
 * A rate scaled to the SI prefix that leaves 1 ≤ |number| < 1000 (0 stays "0 B/s"): two decimals
 * below 100, one from 100, so the shown value is within 0.5 % of the true one.
 */
export function scaleRate(bytesPerSecond: number, unit: RateUnit): ScaledRate {
  const base = unit === 'bits' ? bytesPerSecond * 8 : bytesPerSecond;
  const symbol = unit === 'bits' ? 'b/s' : 'B/s';
  if (base === 0) return { value: '0', unit: symbol };
  let exponent = Math.min(PREFIXES.length - 1, Math.max(0, Math.floor(Math.log10(Math.abs(base)) / 3)));
  let scaled = base / 1000 ** exponent;
  let digits = Math.abs(scaled) >= 100 ? 1 : 2;
  // Rounding can carry into the next prefix (999.96 → "1000.0"): move up one.
  if (Math.abs(Number(scaled.toFixed(digits))) >= 1000 && exponent < PREFIXES.length - 1) {
    exponent++;
    scaled = base / 1000 ** exponent;
    digits = 2;
  }
  return { value: groupDigits(scaled, digits), unit: `${PREFIXES[exponent]}${symbol}` };
}

/** "45.67 TB/s" / "365.4 Tb/s", or "—" when unknown. */
export function formatRate(bytesPerSecond: number | null | undefined, unit: RateUnit): string {
  if (!finite(bytesPerSecond)) return MISSING;
  const { value, unit: symbol } = scaleRate(bytesPerSecond, unit);
  return `${value} ${symbol}`;
}

/** A number with thousands separators, e.g. 13824 → "13,824", 1234.5 (1) → "1,234.5". */
export function groupDigits(value: number, fractionDigits = 0): string {
  return value.toLocaleString('en-US', {
    minimumFractionDigits: fractionDigits,
    maximumFractionDigits: fractionDigits,
    useGrouping: true,
  });
}

/** A count with thousands separators, or "—" when unknown. */
export function formatCount(value: number | null | undefined): string {
  return finite(value) ? groupDigits(value, 0) : MISSING;
}

/**
 * A count in at most four characters, for labels in narrow places (histogram bars): 999, 1.2k,
 * 42k, 415k, 1.2M. Rounded down, so a label never claims more than there is.
 */
export function formatCompactCount(value: number): string {
  const n = Math.max(0, Math.floor(value));
  if (n < 1000) return String(n);
  for (const [size, suffix] of [
    [1e3, 'k'],
    [1e6, 'M'],
    [1e9, 'G'],
  ] as const) {
    const scaled = n / size;
    if (scaled < 10) return `${Math.floor(scaled * 10) / 10}${suffix}`;
    if (scaled < 1000) return `${Math.floor(scaled)}${suffix}`;
  }
  return `${Math.floor(n / 1e12)}T`;
}

const FACTOR: Record<string, number> = Object.fromEntries(PREFIXES.map((p, i) => [p, 1000 ** i]));

/** Reads a formatted rate back into bytes per second (e2e and tests); null when it is not one. */
export function parseRate(text: string): number | null {
  const match = /(-?[\d,]+(?:\.\d+)?)\s*([kMGTPE]?)(B|b)\/s/.exec(text);
  if (!match) return null;
  const [, digits = '', prefix = '', symbol] = match;
  const value = Number(digits.replaceAll(',', '')) * (FACTOR[prefix] ?? 1);
  return symbol === 'b' ? value / 8 : value;
}
