import { openEventSource, type StreamReport, type StreamRequest } from './streamEvents.ts';

/**
 * The dedicated worker behind openStream: the page posts `{url, request}` once; the worker opens
 * the EventSource, parses every message and posts back what it meant (StreamReport). It ends when
 * the page terminates it.
 */

interface WorkerScope {
  onmessage: ((event: MessageEvent<{ url: string; request: StreamRequest }>) => void) | null;
  postMessage: (report: StreamReport) => void;
}

const scope = self as unknown as WorkerScope;
scope.onmessage = (event) => {
  scope.onmessage = null;
  const { url, request } = event.data;
  openEventSource(url, request, (report) => scope.postMessage(report));
};
