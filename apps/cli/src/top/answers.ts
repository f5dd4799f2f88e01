import { linkIdsText } from '@fabscope/contracts/names';
import type { FabricEvent, Health, HistoryPoint, LinkState, Summary } from './api-types.ts';
import { TopClientError } from './errors.ts';

/** Checks of what the server sent: a clear error rather than a screen drawn from garbage. */

export const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const isNumberOrNull = (value: unknown): value is number | null =>
  value === null || (typeof value === 'number' && Number.isFinite(value));
const numberOrNull = (value: unknown): number | null =>
  typeof value === 'number' && Number.isFinite(value) ? value : null;

export function checkHealth(body: unknown): Health {
  if (!isRecord(body) || typeof body.store !== 'string' || !isNumberOrNull(body.lastSampleAgeSeconds)) {
    throw new TopClientError('GET /api/v1/health: not a fabscope health answer');
  }
  return body as unknown as Health;
}

export function checkSummary(body: unknown): Summary {
  const histogram = isRecord(body) ? body.histogram : undefined;
  const buckets = (b: unknown) =>
    Array.isArray(b) && b.length === 10 && b.every((n) => typeof n === 'number');
  if (
    !isRecord(body) ||
    typeof body.time !== 'string' ||
    !isNumberOrNull(body.hostTransmitBytesPerSecond) ||
    !isRecord(histogram) ||
    !buckets(histogram.isl) ||
    !buckets(histogram.host)
  ) {
    throw new TopClientError('GET /api/v1/summary: not a fabscope summary (time, histogram.isl/host ×10)');
  }
  return body as unknown as Summary;
}

export function checkLinks(body: unknown): LinkState[] {
  const links = isRecord(body) ? body.links : undefined;
  const ok = (l: unknown) =>
    isRecord(l) &&
    typeof l.id === 'string' &&
    typeof l.kind === 'string' &&
    isRecord(l.from) &&
    isRecord(l.to) &&
    isNumberOrNull(l.utilization);
  if (!Array.isArray(links) || !links.every(ok)) {
    throw new TopClientError('GET /api/v1/links: not a list of link directions');
  }
  return links as LinkState[];
}

/** GET /summary/history: `{points: [{time, hostTransmitBytesPerSecond, histogram}]}`. */
export function parseHistory(body: unknown): HistoryPoint[] {
  const points = isRecord(body) ? body.points : undefined;
  if (!Array.isArray(points)) throw new TopClientError('GET /api/v1/summary/history: no list of points');
  return points.flatMap((p) =>
    isRecord(p) && typeof p.time === 'string'
      ? [{ time: p.time, hostTransmitBytesPerSecond: numberOrNull(p.hostTransmitBytesPerSecond) }]
      : [],
  );
}

/** GET /events: `{events: [{time, kind, subject, detail}]}`, each as one line of text. */
export function parseEvents(body: unknown): FabricEvent[] {
  const events = isRecord(body) ? body.events : undefined;
  if (!Array.isArray(events)) throw new TopClientError('GET /api/v1/events: no list of events');
  return events.flatMap((e) => {
    if (!isRecord(e) || typeof e.time !== 'string') return [];
    // A fabric-wide event's subject says nothing; a detail that starts with its kind ("alarm raised") reads once.
    const subject = e.subject === 'fabric' ? '' : e.subject;
    const detail = typeof e.detail === 'string' ? e.detail : '';
    const what = [e.kind, subject].filter((p) => typeof p === 'string' && p !== '').join(' ');
    const repeats = subject === '' && typeof e.kind === 'string' && detail.startsWith(`${e.kind} `);
    const text = repeats ? detail : detail !== '' ? `${what}: ${detail}` : what;
    return text ? [{ time: e.time, text: linkIdsText(text) }] : [];
  });
}
