/**
 * Number formatting for the dashboard. Units follow the seed and opatop: throughput in GB/s
 * (10^9 bytes/s), utilization in percent. Unknown values are shown as an em dash, never as 0.
 */

export const MISSING = '—';

function finite(value: number | null | undefined): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}

/** Bytes/s → GB/s digits, e.g. 12_380_000_000 → "12.38". */
export function formatGBpsValue(bytesPerSecond: number | null | undefined, digits = 2): string {
  return finite(bytesPerSecond) ? (bytesPerSecond / 1e9).toFixed(digits) : MISSING;
}

/** Bytes/s → "12.38 GB/s", or "—" when unknown. */
export function formatGBps(bytesPerSecond: number | null | undefined, digits = 2): string {
  return finite(bytesPerSecond) ? `${formatGBpsValue(bytesPerSecond, digits)} GB/s` : MISSING;
}

/** Fraction → percent digits, e.g. 0.995 → "99.5". */
export function formatPercentValue(fraction: number | null | undefined, digits = 1): string {
  return finite(fraction) ? (fraction * 100).toFixed(digits) : MISSING;
}

/** Fraction → "99.5 %", or "—" when unknown. */
export function formatPercent(fraction: number | null | undefined, digits = 1): string {
  return finite(fraction) ? `${formatPercentValue(fraction, digits)} %` : MISSING;
}

/** Packets/s → millions of packets/s digits, e.g. 1_520_000 → "1.52". */
export function formatMpps(packetsPerSecond: number | null | undefined, digits = 2): string {
  return finite(packetsPerSecond) ? (packetsPerSecond / 1e6).toFixed(digits) : MISSING;
}

/** An age in seconds: "0.4 s", "12 s", "3 min 5 s", "2 h 4 min". */
export function formatAge(seconds: number | null | undefined): string {
  if (!finite(seconds)) return MISSING;
  const s = Math.max(0, seconds);
  if (s < 10) return `${s.toFixed(1)} s`;
  if (s < 60) return `${Math.floor(s)} s`;
  if (s < 3600) return `${Math.floor(s / 60)} min ${Math.floor(s % 60)} s`;
  return `${Math.floor(s / 3600)} h ${Math.floor((s % 3600) / 60)} min`;
}

const FABRIC_TYPE_LABELS: Record<string, string> = {
  omnipath: 'Omni-Path',
  infiniband: 'InfiniBand',
  ethernet: 'Ethernet',
};

export function formatFabricType(type: string): string {
  return FABRIC_TYPE_LABELS[type] ?? type;
}
