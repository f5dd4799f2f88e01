import type { FabricSnapshot } from './types.ts';

export const STREAM_PATH = '/api/v1/stream';

/**
 * Parses one SSE `message` of the stream, checking the fields the dashboard relies on, so a
 * server change shows up as a precise error instead of NaN on screen.
 */
export function parseSnapshot(data: string): FabricSnapshot {
  let value: unknown;
  try {
    value = JSON.parse(data);
  } catch {
    throw new Error('stream message is not JSON');
  }
  if (typeof value !== 'object' || value === null) throw new Error('stream message is not an object');
  const v = value as Partial<FabricSnapshot>;
  if (typeof v.time !== 'string') throw new Error('stream message: missing time');
  if (typeof v.health !== 'object' || v.health === null) throw new Error('stream message: missing health');
  if (typeof v.summary !== 'object' || v.summary === null) throw new Error('stream message: missing summary');
  if (!Array.isArray(v.links)) throw new Error('stream message: links is not an array');
  const histogram = v.summary.histogram;
  if (!histogram || !Array.isArray(histogram.isl) || !Array.isArray(histogram.host)) {
    throw new Error('stream message: missing summary.histogram');
  }
  for (const link of v.links) {
    if (typeof link?.id !== 'string' || typeof link.kind !== 'string') {
      throw new Error('stream message: a link has no id or kind');
    }
  }
  return v as FabricSnapshot;
}
