import { openEventSource, type StreamReport } from './streamEvents.ts';
import { isCompact } from './types.ts';
import { type StreamWorkerCall, ValuesPool } from './valuesPool.ts';

/**
 * The dedicated worker behind openStream: the page posts `open` once; the worker opens the
 * EventSource, parses every message and posts back what it meant (StreamReport); a compact
 * snapshot's per-channel arrays are transferred, not copied, and come back (`recycle`) once the
 * page is done with them, to be filled again (valuesPool.ts). It ends when the page terminates it.
 */

interface WorkerScope {
  onmessage: ((event: MessageEvent<StreamWorkerCall>) => void) | null;
  postMessage: (report: StreamReport, transfer: Transferable[]) => void;
}

/** The buffers a report hands over: a compact snapshot's per-channel arrays. */
function transfers(report: StreamReport): Transferable[] {
  if (report.kind !== 'message' || !isCompact(report.snapshot)) return [];
  const { utilization, bytesPerSecond, waitFraction } = report.snapshot;
  return [utilization.buffer, bytesPerSecond.buffer, waitFraction.buffer];
}

const scope = self as unknown as WorkerScope;
const pool = new ValuesPool();
let opened = false;
scope.onmessage = (event) => {
  const call = event.data;
  if (call.kind === 'recycle') {
    pool.give(call.buffers);
    return;
  }
  if (opened) return;
  opened = true;
  openEventSource(
    call.url,
    call.request,
    (report) => scope.postMessage(report, transfers(report)),
    pool.take,
  );
};
