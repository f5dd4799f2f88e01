import { streamUrl } from './stream.ts';
import { openEventSource, type StreamReport, type StreamRequest, type StreamSource } from './streamEvents.ts';
import { returnOlderValues, type StreamWorkerCall } from './valuesPool.ts';

/** Opens the stream in a worker, or on the page when the worker fails before its first report. */
export function openStream(request: StreamRequest, report: (r: StreamReport) => void): StreamSource {
  const url = new URL(streamUrl(request.view), window.location.href).href;
  if (typeof Worker === 'undefined') return openEventSource(url, request, report);
  let worker: Worker | null = null;
  let fallback: StreamSource | null = null;
  let heard = false;
  let closed = false;
  try {
    worker = new Worker(new URL('./streamWorker.ts', import.meta.url), { type: 'module' });
  } catch {
    return openEventSource(url, request, report);
  }
  const post = (call: StreamWorkerCall, transfer: Transferable[] = []) => worker?.postMessage(call, transfer);
  // A compact message's arrays go back to the worker two messages later, to be filled again.
  const recycle = returnOlderValues((buffers) => post({ kind: 'recycle', buffers }, buffers));
  worker.onmessage = (event: MessageEvent<StreamReport>) => {
    heard = true;
    report(event.data);
    if (event.data.kind === 'message') recycle(event.data.snapshot);
  };
  worker.onerror = (event) => {
    event.preventDefault();
    worker?.terminate();
    worker = null;
    if (closed) return;
    if (!heard) fallback = openEventSource(url, request, report);
    else report({ kind: 'error', closed: true });
  };
  post({ kind: 'open', url, request });
  return {
    close: () => {
      closed = true;
      worker?.terminate();
      fallback?.close();
    },
  };
}
