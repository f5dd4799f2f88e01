import type { ValuesSource } from '../../lib/channelValues.ts';
import type { TierGroups } from '../../lib/tierGroups.ts';
import { summarizeSnapshot } from '../../lib/tierLoad.ts';
import type { LiveSnapshot, StreamView } from '../types.ts';
import { parseCompactSnapshot, parseSnapshot, TopologyChangedError } from './stream.ts';

/** The live stream's events once their message is parsed, in the stream's worker or on the page. */
export type StreamReport =
  | { kind: 'open' }
  | { kind: 'message'; snapshot: LiveSnapshot }
  /** A message of another topology version than the one drawn (not shown). */
  | { kind: 'topology'; version: number }
  /** A message the dashboard cannot read. */
  | { kind: 'bad'; message: string }
  /** The connection was lost; `closed`: the browser gave up (it reconnects by itself otherwise). */
  | { kind: 'error'; closed: boolean };

/** What to open: the encoding, the topology to check against, and whether to add the tier summary. */
export interface StreamRequest {
  view: StreamView;
  channels?: number | undefined;
  version?: number | undefined;
  tiers?: TierGroups | undefined;
}

export interface StreamSource {
  close: () => void;
}

/** Parses one message as the request says; compact arrays come from `valuesOf`. */
export function reportOf(request: StreamRequest, data: string, valuesOf?: ValuesSource): StreamReport {
  try {
    if (request.view !== 'compact')
      return { kind: 'message', snapshot: parseSnapshot(data, request.version) };
    const snapshot = parseCompactSnapshot(data, request.channels, request.version, valuesOf);
    if (request.tiers) snapshot.tiers = summarizeSnapshot(request.tiers, snapshot);
    return { kind: 'message', snapshot };
  } catch (error) {
    if (error instanceof TopologyChangedError) return { kind: 'topology', version: error.version };
    return { kind: 'bad', message: (error as Error).message };
  }
}

/** An EventSource on this thread (the worker's, or the page's where no worker starts). */
export function openEventSource(
  url: string,
  request: StreamRequest,
  report: (r: StreamReport) => void,
  valuesOf?: ValuesSource,
): StreamSource {
  const source = new EventSource(url);
  source.onopen = () => report({ kind: 'open' });
  source.onmessage = (event: MessageEvent<string>) => report(reportOf(request, event.data, valuesOf));
  source.onerror = () => {
    const closed = source.readyState === EventSource.CLOSED;
    if (closed) source.close();
    report({ kind: 'error', closed });
  };
  return { close: () => source.close() };
}
