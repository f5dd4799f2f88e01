import type { CompactStreamMessage, FullStreamMessage } from '@fabscope/contracts';
import { channelValuesOf, countUnknown, type ValuesSource } from '../../lib/channelValues.ts';
import type { CompactSnapshot, StreamTick, StreamView } from '../types.ts';

export const STREAM_PATH = '/api/v1/stream';

/** The stream's URL for an encoding, always named (the server's default is compact). */
export function streamUrl(view: StreamView): string {
  return `${STREAM_PATH}?view=${view}`;
}

function parseJson(data: string): unknown {
  try {
    return JSON.parse(data);
  } catch {
    throw new Error('stream message is not JSON');
  }
}

function checkTick(value: unknown): Partial<StreamTick> & Record<string, unknown> {
  if (typeof value !== 'object' || value === null) throw new Error('stream message is not an object');
  const v = value as Partial<StreamTick> & Record<string, unknown>;
  if (typeof v.time !== 'string') throw new Error('stream message: missing time');
  if (typeof v.health !== 'object' || v.health === null) throw new Error('stream message: missing health');
  if (typeof v.summary !== 'object' || v.summary === null) throw new Error('stream message: missing summary');
  const histogram = v.summary.histogram;
  if (!histogram || !Array.isArray(histogram.isl) || !Array.isArray(histogram.host)) {
    throw new Error('stream message: missing summary.histogram');
  }
  return v;
}

function checkLinks(links: unknown, field: string): void {
  if (!Array.isArray(links)) throw new Error(`stream message: ${field} is not an array`);
  for (const link of links as { id?: unknown; kind?: unknown }[]) {
    if (typeof link?.id !== 'string' || typeof link.kind !== 'string') {
      throw new Error(`stream message: a link in ${field} has no id or kind`);
    }
  }
}

/** Parses one stream message, checking the fields relied on, so a server change is a precise error. */
export function parseSnapshot(data: string, topologyVersion?: number): FullStreamMessage {
  return snapshotOf(parseJson(data), topologyVersion);
}

/** A full message already parsed (a past instant's, `GET /instant?view=full`), checked as parseSnapshot does. */
export function snapshotOf(value: unknown, topologyVersion?: number): FullStreamMessage {
  const v = checkTick(value);
  checkTopologyVersion(v, topologyVersion);
  if (!Array.isArray(v.links)) throw new Error('stream message: links is not an array');
  checkLinks(v.links, 'links');
  return v as unknown as FullStreamMessage;
}

/** A message of another topology: the dashboard fetches the topology again, not an error. */
export class TopologyChangedError extends Error {
  override name = 'TopologyChangedError';
  constructor(readonly version: number) {
    super(`the API draws topology version ${version} now`);
  }
}

/** Throws TopologyChangedError when a message's topology version is not `expected`. */
function checkTopologyVersion(v: Partial<StreamTick>, expected: number | undefined): void {
  if (expected === undefined) return;
  const version = (v.health as { topologyVersion?: unknown } | undefined)?.topologyVersion ?? 0;
  if (typeof version !== 'number') throw new Error('stream message: health.topologyVersion is not a number');
  if (version !== expected) throw new TopologyChangedError(version);
}

/** Parses one compact message; `channels` is 2 × links, `valuesOf` gives the per-channel arrays. */
export function parseCompactSnapshot(
  data: string,
  channels?: number,
  topologyVersion?: number,
  valuesOf?: ValuesSource,
): CompactSnapshot {
  return compactSnapshotOf(parseJson(data), channels, topologyVersion, valuesOf);
}

/** A past instant's compact message already parsed, checked and completed as parseCompactSnapshot does. */
export function compactSnapshotOf(
  value: unknown,
  channels?: number,
  topologyVersion?: number,
  valuesOf?: ValuesSource,
): CompactSnapshot {
  const v = checkTick(value);
  checkTopologyVersion(v, topologyVersion);
  for (const field of ['utilization', 'bytesPerSecond'] as const) {
    const list = v[field];
    if (!Array.isArray(list)) throw new Error(`stream message: ${field} is not an array`);
    if (channels !== undefined && list.length !== channels) {
      throw new Error(
        `stream message: ${field} has ${list.length} channels, the topology ${channels}; reload the page`,
      );
    }
  }
  const n = (v.utilization as unknown[]).length;
  // Older servers send no congestion or link state: unknown, never 0.
  if (v.waitFraction !== undefined && !Array.isArray(v.waitFraction)) {
    throw new Error('stream message: waitFraction is not an array');
  }
  // Older servers list every channel with errors and send no count of the unknown ones.
  if (v.errorsUnknown === undefined) v.errorsUnknown = 0;
  else if (typeof v.errorsUnknown !== 'number')
    throw new Error('stream message: errorsUnknown is not a number');
  if (v.linkDown === undefined) v.linkDown = [];
  else if (!Array.isArray(v.linkDown)) throw new Error('stream message: linkDown is not an array');
  checkLinks(v.top, 'top');
  const wire = v as unknown as CompactStreamMessage;
  const utilization = channelValuesOf(wire.utilization, valuesOf);
  return {
    ...wire,
    utilization,
    unknownChannels: countUnknown(utilization),
    bytesPerSecond: channelValuesOf(wire.bytesPerSecond, valuesOf),
    waitFraction: wire.waitFraction
      ? channelValuesOf(wire.waitFraction, valuesOf)
      : (valuesOf?.(n) ?? new Float64Array(n)).fill(Number.NaN),
  };
}
