import { directionText, linkIdsText } from '@fabscope/contracts/names';
/** Every number, time and name written one way; unknown is an em dash, never 0. */

import { MISSING } from '@fabscope/contracts/units';

function finite(value: number | null | undefined): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}

// Counts, fractions, packets, ages

/** One formatter per number of decimals: making one costs far more than using it. */
const grouping = new Map<number, Intl.NumberFormat>();

/** A number with thousands separators, e.g. 13824 → "13,824", 1234.5 (1) → "1,234.5". */
export function groupDigits(value: number, fractionDigits = 0): string {
  let format = grouping.get(fractionDigits);
  if (!format) {
    format = new Intl.NumberFormat('en-US', {
      minimumFractionDigits: fractionDigits,
      maximumFractionDigits: fractionDigits,
      useGrouping: true,
    });
    grouping.set(fractionDigits, format);
  }
  return format.format(value);
}

/** A count with thousands separators, or "—" when unknown. */
export function formatCount(value: number | null | undefined): string {
  return finite(value) ? groupDigits(value, 0) : MISSING;
}

/** A count in at most four characters (999, 1.2k, 1.2M), rounded down so it never claims more. */
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

/** A count per second of events (errors, discards): "0", "0.50", "2.0", "1,000". */
export function formatPerSecond(value: number | null | undefined): string {
  if (!finite(value)) return MISSING;
  if (value === 0) return '0';
  if (value >= 100) return groupDigits(Math.round(value));
  return value >= 1 ? value.toFixed(1) : value.toPrecision(2);
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

// Times: a 24-hour clock in the browser's zone; the zone is named once, by the time bar.

const pad = (n: number): string => String(n).padStart(2, '0');

function clockOf(d: Date): string {
  return `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}

function dateOf(d: Date): string {
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

/** "11:02:15" in the browser's zone, 24-hour; with the date ("2026-11-21 11:02:15") when not today. */
export function formatClock(ms: number, nowMs: number = Date.now()): string {
  const d = new Date(ms);
  const sameDay = new Date(nowMs).toDateString() === d.toDateString();
  return sameDay ? clockOf(d) : `${dateOf(d)} ${clockOf(d)}`;
}

/** "11:02" or "11:02:15" (ticks less than a minute apart): a chart's time axis. */
export function formatTimeTick(ms: number, withSeconds: boolean): string {
  const d = new Date(ms);
  return withSeconds ? clockOf(d) : clockOf(d).slice(0, 5);
}

let zoneName: string | undefined | null = null;

/** The browser's time zone (IANA name), asked of Intl once. */
function browserZone(): string | undefined {
  if (zoneName === null) zoneName = Intl.DateTimeFormat().resolvedOptions().timeZone;
  return zoneName;
}

/** The browser's zone as "Europe/Paris, UTC+01:00", or "UTC"; `offsetMinutes` is east of UTC. */
export function formatTimeZone(
  zone: string | undefined = browserZone(),
  offsetMinutes: number = -new Date().getTimezoneOffset(),
): string {
  const sign = offsetMinutes < 0 ? '−' : '+';
  const a = Math.abs(offsetMinutes);
  const offset = `UTC${sign}${pad(Math.floor(a / 60))}:${pad(a % 60)}`;
  if (!zone || zone === 'UTC' || zone === 'Etc/UTC') return offsetMinutes === 0 ? 'UTC' : offset;
  return `${zone}, ${offset}`;
}

/** An instant as a date-and-time field reads it: "2026-11-22 11:02:15", 24-hour, browser's zone. */
export function formatDateTimeField(ms: number): string {
  const d = new Date(ms);
  return `${dateOf(d)} ${clockOf(d)}`;
}

/** A date-time field's text read in the browser's zone; null unless a whole, real instant. */
export function parseDateTimeField(text: string): number | null {
  const m = /^\s*(\d{4})-(\d{2})-(\d{2})[T ](\d{1,2}):(\d{2})(?::(\d{2}))?\s*$/.exec(text);
  if (!m) return null;
  const [y, mo, d, h, mi, s] = m.slice(1).map((v) => (v === undefined ? 0 : Number(v))) as number[];
  const date = new Date(y ?? 0, (mo ?? 1) - 1, d, h, mi, s);
  // 2026-02-31 rolls over into March in Date: refuse it instead.
  if (date.getMonth() !== (mo ?? 1) - 1 || date.getDate() !== d || date.getHours() !== h) return null;
  return date.getTime();
}

// Names

/** A link direction as the dashboard writes it: `edge1/4->core2/1` → `edge1/4 → core2/1`. */
export const formatDirection = directionText;

/** The ends of a direction: `{from: {node, port}, to}` → `edge1/4 → core2/1`. */
export function formatEnds(d: {
  from: { node: string; port: number };
  to: { node: string; port: number };
}): string {
  return `${d.from.node}/${d.from.port} → ${d.to.node}/${d.to.port}`;
}

/** Every link direction and cable id inside a text (the API's event details) written as above. */
export const formatLinkIds = linkIdsText;

const FABRIC_TYPE_LABELS: Record<string, string> = {
  omnipath: 'Omni-Path',
  infiniband: 'InfiniBand',
  ethernet: 'Ethernet',
};

export function formatFabricType(type: string): string {
  return FABRIC_TYPE_LABELS[type] ?? type;
}

/** The store, and where live data is read when not from the store itself. */
export function formatStore(health: { store: string; liveSource?: string } | undefined): string {
  if (!health) return '—';
  return health.liveSource === 'collectors' ? `${health.store} · live from the collectors` : health.store;
}
