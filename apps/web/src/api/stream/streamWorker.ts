import { isCompact } from '../../lib/channelValues.ts';
import { openEventSource, type StreamReport } from './streamEvents.ts';
import { type StreamWorkerCall, ValuesPool } from './valuesPool.ts';

/** The worker behind openStream: parses every message and transfers compact arrays (valuesPool.ts). */

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
