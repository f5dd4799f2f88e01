import { MAX_DURATION_SECONDS, MAX_RATE_BYTES_PER_SECOND, MAX_SIZE_BYTES } from '@fabscope/contracts/limits';

/**
 * Quantities: a number in the base unit or a string with a unit (`500ms`, `4KiB`, `100Gb/s`); a bare
 * `K`/`M`/`G` size is binary, as fio and iperf take it.
 */
export class QuantityError extends Error {
  override name = 'QuantityError';
}

const DURATION_S: Record<string, number> = { ms: 1e-3, s: 1, m: 60, min: 60, h: 3600 };
const SIZE_BYTES: Record<string, number> = {
  '': 1,
  b: 1,
  k: 1024,
  kb: 1e3,
  kib: 1024,
  m: 1024 ** 2,
  mb: 1e6,
  mib: 1024 ** 2,
  g: 1024 ** 3,
  gb: 1e9,
  gib: 1024 ** 3,
};
const RATE_BYTES: Record<string, number> = {
  'b/s': 1,
  'kb/s': 1e3,
  'mb/s': 1e6,
  'gb/s': 1e9,
  'bit/s': 1 / 8,
  'kbit/s': 1e3 / 8,
  'mbit/s': 1e6 / 8,
  'gbit/s': 1e9 / 8,
};

function atMost(name: string, value: number, max: number, raw: unknown, unit: string): number {
  if (!(value <= max))
    throw new QuantityError(`${name} must be at most ${max} ${unit}, got ${JSON.stringify(raw)}`);
  return value;
}

function split(name: string, value: unknown): { n: number; unit: string } {
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new QuantityError(`${name} must be finite, got ${value}`);
    return { n: value, unit: '' };
  }
  if (typeof value !== 'string') throw new QuantityError(`${name} must be a number or a string with a unit`);
  const match = /^\s*([0-9]*\.?[0-9]+(?:e[+-]?\d+)?)\s*([a-zA-Z/]*)\s*$/.exec(value);
  if (!match) throw new QuantityError(`${name}: cannot read ${JSON.stringify(value)}`);
  const n = Number(match[1]);
  if (!Number.isFinite(n)) throw new QuantityError(`${name} must be finite, got ${JSON.stringify(value)}`);
  return { n, unit: match[2] ?? '' };
}

/** Seconds. A bare number is seconds. */
export function parseDuration(name: string, value: unknown): number {
  const { n, unit } = split(name, value);
  const factor = unit === '' ? 1 : DURATION_S[unit];
  if (factor === undefined) throw new QuantityError(`${name}: unknown time unit "${unit}" (ms, s, m, h)`);
  if (n < 0) throw new QuantityError(`${name} must be ≥ 0, got ${JSON.stringify(value)}`);
  return atMost(name, n * factor, MAX_DURATION_SECONDS, value, 'seconds');
}

/** Bytes (whole). A bare number is bytes. */
export function parseSize(name: string, value: unknown): number {
  const { n, unit } = split(name, value);
  const factor = SIZE_BYTES[unit.toLowerCase()];
  if (factor === undefined)
    throw new QuantityError(`${name}: unknown size unit "${unit}" (B, KiB, KB, K, MiB, …)`);
  const bytes = Math.round(n * factor);
  if (!(bytes >= 1)) throw new QuantityError(`${name} must be at least 1 byte, got ${JSON.stringify(value)}`);
  return atMost(name, bytes, MAX_SIZE_BYTES, value, 'bytes');
}

/** Bytes per second. A bare number is bytes/s; `Gb/s` is gigabits, `GB/s` gigabytes. */
export function parseRate(name: string, value: unknown): number {
  const { n, unit } = split(name, value);
  if (unit === '') return positive(name, n, value);
  // Case matters for b (bit) vs B (byte) in `Gb/s` / `GB/s`.
  const bits = /^([kKmMgG]?)b\/s$/.exec(unit);
  const bytes = /^([kKmMgG]?)B\/s$/.exec(unit);
  const prefix = (p: string) => ({ '': 1, k: 1e3, m: 1e6, g: 1e9 })[p.toLowerCase()] as number;
  if (bits) return positive(name, (n * prefix(bits[1] ?? '')) / 8, value);
  if (bytes) return positive(name, n * prefix(bytes[1] ?? ''), value);
  const factor = RATE_BYTES[unit.toLowerCase()];
  if (factor === undefined) throw new QuantityError(`${name}: unknown rate unit "${unit}" (Gb/s, GB/s, B/s)`);
  return positive(name, n * factor, value);
}

function positive(name: string, bytes: number, raw: unknown): number {
  if (!(bytes > 0)) throw new QuantityError(`${name} must be > 0, got ${JSON.stringify(raw)}`);
  return atMost(name, bytes, MAX_RATE_BYTES_PER_SECOND, raw, 'bytes/s');
}
