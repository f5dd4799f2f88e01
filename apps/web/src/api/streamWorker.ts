import { openEventSource, type StreamReport, type StreamRequest } from './streamEvents.ts';
import { isCompact } from './types.ts';

/**
 * The dedicated worker behind openStream: the page posts `{url, request}` once; the worker opens
 * the EventSource, parses every message and posts back what it meant (StreamReport); a compact
 * snapshot's per-channel arrays are transferred, not copied. It ends when the page terminates it.
 */

interface WorkerScope {
  onmessage: ((event: MessageEvent<{ url: string; request: StreamRequest }>) => void) | null;
  postMessage: (report: StreamReport, transfer: Transferable[]) => void;
}

/** The buffers a report hands over: a compact snapshot's per-channel arrays. */
function transfers(report: StreamReport): Transferable[] {
  if (report.kind !== 'message' || !isCompact(report.snapshot)) return [];
  const { utilization, bytesPerSecond, waitFraction } = report.snapshot;
  return [utilization.buffer, bytesPerSecond.buffer, waitFraction.buffer];
}

const scope = self as unknown as WorkerScope;
scope.onmessage = (event) => {
  scope.onmessage = null;
  const { url, request } = event.data;
  openEventSource(url, request, (report) => scope.postMessage(report, transfers(report)));
};
