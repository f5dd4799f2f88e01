/** Number and text formatting for the terminal view: SI scaling, digit grouping, fixed widths. */

/** Shown wherever a value is unknown (stale, not reported, server unreachable); never 0. */
export const UNKNOWN = '—';

const grouped = (fractionDigits: number) =>
  new Intl.NumberFormat('en-US', {
    minimumFractionDigits: fractionDigits,
    maximumFractionDigits: fractionDigits,
    useGrouping: true,
  });
const integer = grouped(0);
const oneDecimal = grouped(1);
const twoDecimals = grouped(2);

const SI_PREFIXES = ['', 'k', 'M', 'G', 'T', 'P', 'E'] as const;

/** `value` with an SI prefix (as opatop's MBps) and three significant digits: 12.3 G, 456 k, 7.89. */
export function si(value: number | null | undefined, unit: string): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return UNKNOWN;
  let scaled = Math.abs(value);
  let prefix = 0;
  while (scaled >= 999.5 && prefix < SI_PREFIXES.length - 1) {
    scaled /= 1000;
    prefix++;
  }
  const digits = scaled >= 99.95 ? integer : scaled >= 9.995 ? oneDecimal : twoDecimals;
  const sign = value < 0 ? '-' : '';
  return `${sign}${digits.format(scaled)} ${SI_PREFIXES[prefix]}${unit}`;
}

/** A count with digit grouping: 27,648. */
export function count(value: number | null | undefined): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return UNKNOWN;
  return integer.format(value);
}

/** A fraction 0..1 as a percentage with one decimal: "99.2 %". */
export function percent(fraction: number | null | undefined): string {
  if (fraction === null || fraction === undefined || !Number.isFinite(fraction)) return UNKNOWN;
  return `${oneDecimal.format(fraction * 100)} %`;
}

/** Seconds as "0.8 s", "42 s", "3 min 5 s". */
export function age(seconds: number | null | undefined): string {
  if (seconds === null || seconds === undefined || !Number.isFinite(seconds)) return UNKNOWN;
  if (seconds < 10) return `${oneDecimal.format(seconds)} s`;
  if (seconds < 120) return `${integer.format(seconds)} s`;
  const minutes = Math.floor(seconds / 60);
  return `${integer.format(minutes)} min ${Math.round(seconds - minutes * 60)} s`;
}

/** Cut to `width` columns; a cut text ends in "…" so the reader knows (opatop marks it with *). */
export function fit(text: string, width: number): string {
  if (width <= 0) return '';
  const chars = [...text];
  if (chars.length <= width) return text;
  return `${chars.slice(0, width - 1).join('')}…`;
}

/** Exactly `width` columns, cut or padded on the right. */
export function padEnd(text: string, width: number): string {
  const cut = fit(text, width);
  return cut + ' '.repeat(Math.max(0, width - [...cut].length));
}

/** Exactly `width` columns, cut or padded on the left (numbers line up on the right). */
export function padStart(text: string, width: number): string {
  const cut = fit(text, width);
  return ' '.repeat(Math.max(0, width - [...cut].length)) + cut;
}

/** An ISO time as "22:41:07Z" (UTC, as the API reports). */
export function clock(iso: string | null | undefined): string {
  if (!iso) return UNKNOWN;
  const time = new Date(iso);
  if (Number.isNaN(time.getTime())) return UNKNOWN;
  return `${time.toISOString().slice(11, 19)}Z`;
}
