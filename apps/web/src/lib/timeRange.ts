/** The time controls' pure parts: range, instant shown, their URL form, and the query step. */

export const RANGE_PRESETS = [
  { key: '5m', label: '5 m', seconds: 300 },
  { key: '15m', label: '15 m', seconds: 900 },
  { key: '1h', label: '1 h', seconds: 3600 },
  // Offered where the store holds that much (GET /history/kept): history on disk, or Prometheus.
  { key: '6h', label: '6 h', seconds: 6 * 3600 },
  { key: '24h', label: '24 h', seconds: 24 * 3600 },
  { key: '7d', label: '7 d', seconds: 7 * 86_400 },
] as const;
export type PresetKey = (typeof RANGE_PRESETS)[number]['key'];
export const DEFAULT_PRESET: PresetKey = '15m';

export type TimeRange =
  | { kind: 'preset'; key: PresetKey; seconds: number }
  | { kind: 'custom'; fromMs: number; toMs: number };

export interface TimeWindow {
  fromMs: number;
  toMs: number;
}

/** An instant from the URL or the API: RFC 3339 or Unix seconds; null when absent or unreadable. */
export function parseInstant(raw: string | number | null | undefined): number | null {
  if (raw === null || raw === undefined) return null;
  if (typeof raw === 'number') return Number.isFinite(raw) ? raw * 1000 : null;
  const text = raw.trim();
  if (text === '') return null;
  if (/^\d+(\.\d+)?$/.test(text)) return Number(text) * 1000;
  const ms = Date.parse(text);
  return Number.isNaN(ms) ? null : ms;
}

/** An instant for the URL and the API: RFC 3339 to the millisecond, in UTC. */
export function formatInstant(ms: number): string {
  return new Date(ms).toISOString();
}

export const serializeInstant = (ms: number | null): string | null =>
  ms === null ? null : formatInstant(ms);

function presetOf(key: PresetKey): TimeRange {
  const preset = RANGE_PRESETS.find((p) => p.key === key) ?? RANGE_PRESETS[1];
  return { kind: 'preset', key: preset.key, seconds: preset.seconds };
}

/** `range=5m|15m|1h|6h|24h|7d` or `range=<from>..<to>` (instants); anything else is the default preset. */
export function parseRange(raw: string | null): TimeRange {
  if (raw) {
    const preset = RANGE_PRESETS.find((p) => p.key === raw);
    if (preset) return presetOf(preset.key);
    const [a, b, extra] = raw.split('..');
    const fromMs = parseInstant(a);
    const toMs = parseInstant(b);
    if (extra === undefined && fromMs !== null && toMs !== null && toMs > fromMs) {
      return { kind: 'custom', fromMs, toMs };
    }
  }
  return presetOf(DEFAULT_PRESET);
}

export function serializeRange(range: TimeRange): string | null {
  if (range.kind === 'preset') return range.key === DEFAULT_PRESET ? null : range.key;
  return `${formatInstant(range.fromMs)}..${formatInstant(range.toMs)}`;
}

/** The chart's window: a preset ends now, moved back to centre a viewed instant before it. */
export function windowOf(range: TimeRange, nowMs: number, atMs: number | null): TimeWindow {
  if (range.kind === 'custom') return { fromMs: range.fromMs, toMs: range.toMs };
  const spanMs = range.seconds * 1000;
  if (atMs === null || atMs >= nowMs - spanMs) return { fromMs: nowMs - spanMs, toMs: nowMs };
  const toMs = Math.min(nowMs, atMs + spanMs / 2);
  return { fromMs: toMs - spanMs, toMs };
}

/** Whole seconds per point: the range over the pixel width, at least one tick (and one second). */
export function stepSeconds(window: TimeWindow, widthPx: number, tickSeconds: number): number {
  const rangeSeconds = Math.max(0, (window.toMs - window.fromMs) / 1000);
  const perPixel = widthPx > 0 ? rangeSeconds / widthPx : rangeSeconds;
  return Math.max(1, Math.ceil(Math.max(perPixel, tickSeconds)));
}

/** Rounds a window outward to whole steps, so a following window asks the same until a step passes. */
export function alignWindow(window: TimeWindow, step: number): TimeWindow {
  const stepMs = step * 1000;
  return {
    fromMs: Math.floor(window.fromMs / stepMs) * stepMs,
    toMs: Math.ceil(window.toMs / stepMs) * stepMs,
  };
}
