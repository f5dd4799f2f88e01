// Rates as fabscope writes them everywhere: the dashboard and `fabscope top`.

/** Shown wherever a value is unknown (stale, not reported); never 0. */
export const MISSING = '—';

function finite(value: number | null | undefined): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}

/** Bytes per second (GB/s, as opatop) or bits per second (Gb/s, as link rates and iperf). */
export type RateUnit = 'bytes' | 'bits';

/** SI prefixes, powers of 1000 (the last two are 10^27 and 10^30). */
const PREFIXES = ['', 'k', 'M', 'G', 'T', 'P', 'E', 'Z', 'Y', 'R', 'Q'] as const;
const TOP = PREFIXES.length - 1;

export interface ScaledRate {
  /** The number to print, e.g. "45.67". */
  value: string;
  /** Its unit, e.g. "TB/s". */
  unit: string;
}

const symbolOf = (unit: RateUnit): string => (unit === 'bits' ? 'b/s' : 'B/s');
const baseOf = (bytesPerSecond: number, unit: RateUnit): number =>
  unit === 'bits' ? bytesPerSecond * 8 : bytesPerSecond;

/** The power of 1000 that leaves 1 ≤ |value| < 1000 (0 below 1). */
function exponentOf(value: number): number {
  const a = Math.abs(value);
  if (!(a >= 1)) return 0;
  return Math.min(TOP, Math.floor(Math.log10(a) / 3));
}

/**
 * A rate scaled to the SI prefix that leaves 1 ≤ |number| < 1000, at most four significant digits
 * (within 0.5 % of the true value); beyond the last prefix, powers of ten.
 */
export function scaleRate(bytesPerSecond: number, unit: RateUnit): ScaledRate {
  const base = baseOf(bytesPerSecond, unit);
  const symbol = symbolOf(unit);
  if (base === 0) return { value: '0', unit: symbol };
  let exponent = exponentOf(base);
  // Bits of the largest doubles overflow: scale the bytes first.
  let scaled = Number.isFinite(base) ? base / 1000 ** exponent : (bytesPerSecond / 1000 ** TOP) * 8;
  let digits = Math.abs(scaled) >= 100 ? 1 : 2;
  // Rounding can carry into the next prefix (999.96 → "1000.0"): move up one.
  if (Math.abs(Number(scaled.toFixed(digits))) >= 1000 && exponent < TOP) {
    exponent++;
    scaled /= 1000;
    digits = 2;
  }
  const prefix = PREFIXES[exponent];
  if (Math.abs(scaled) >= 1000) return { value: scaled.toPrecision(4), unit: `${prefix}${symbol}` };
  return { value: scaled.toFixed(digits), unit: `${prefix}${symbol}` };
}

/** "45.67 TB/s" / "365.4 Tb/s", or "—" when unknown. */
export function formatRate(bytesPerSecond: number | null | undefined, unit: RateUnit): string {
  if (!finite(bytesPerSecond)) return MISSING;
  const { value, unit: symbol } = scaleRate(bytesPerSecond, unit);
  return `${value} ${symbol}`;
}

/** A rate the analysis gives in Gb/s (10^9 bits/s), written as any other rate. */
export function formatGbpsRate(gbps: number | null | undefined, unit: RateUnit): string {
  return finite(gbps) ? formatRate((gbps * 1e9) / 8, unit) : MISSING;
}

/**
 * The tick labels of a rate axis, all in one prefix (the largest tick's), with the fewest decimals
 * that tell the ticks apart and at most four significant digits: "0 GB/s", "2.5 GB/s", "5 GB/s".
 */
export function formatRateTicks(bytesPerSecond: readonly number[], unit: RateUnit): string[] {
  const values = bytesPerSecond.map((v) => (finite(v) ? baseOf(v, unit) : Number.NaN));
  const largest = Math.max(0, ...values.filter(Number.isFinite).map(Math.abs));
  let exponent = exponentOf(largest);
  // Rounding can carry the largest tick into the next prefix (999.96 kB/s is 1.00 MB/s).
  if (exponent < TOP && Math.round(largest / 1000 ** exponent) >= 1000) exponent++;
  const scale = 1000 ** exponent;
  const symbol = `${PREFIXES[exponent]}${symbolOf(unit)}`;
  const top = largest / scale;
  // Digits before the point of a tick as printed; the decimals leave at most four in all.
  const before = (v: number): number => (v < 1 ? 1 : Math.floor(Math.log10(v)) + 1);
  let maxDecimals = Math.max(0, 4 - before(top));
  while (maxDecimals > 0 && before(Number(top.toFixed(maxDecimals))) + maxDecimals > 4) maxDecimals--;
  let decimals = 0;
  while (
    decimals < maxDecimals &&
    values.some(
      (v) =>
        Number.isFinite(v) &&
        Math.abs(Number((v / scale).toFixed(decimals)) - v / scale) > 1e-9 * Math.max(1, top),
    )
  )
    decimals++;
  return values.map((v) => (Number.isFinite(v) ? `${(v / scale).toFixed(decimals)} ${symbol}` : MISSING));
}

const FACTOR: Record<string, number> = Object.fromEntries(PREFIXES.map((p, i) => [p, 1000 ** i]));

/** Reads a formatted rate back into bytes per second (e2e and tests); null when it is not one. */
export function parseRate(text: string): number | null {
  const match = /(-?[\d,]+(?:\.\d+)?(?:e[+-]?\d+)?)\s*([kMGTPEZYRQ]?)(B|b)\/s/.exec(text);
  if (!match) return null;
  const [, digits = '', prefix = '', symbol] = match;
  const value = Number(digits.replaceAll(',', '')) * (FACTOR[prefix] ?? 1);
  return symbol === 'b' ? value / 8 : value;
}
