import { decodedTransfers } from './compactDecode.ts';
import { type ExchangeAnswer, type ExchangeRequest, isAbort, NetworkFailure } from './exchange.ts';
import { fetchExchange } from './fetchExchange.ts';

/** The worker behind workerExchange: fetches and parses reads off the main thread, transferring arrays. */

export type ExchangeCall = { id: number; request: ExchangeRequest } | { id: number; abort: true };

export type ExchangeReply =
  | { id: number; answer: ExchangeAnswer }
  | { id: number; network: string }
  | { id: number; aborted: true };

interface WorkerScope {
  onmessage: ((event: MessageEvent<ExchangeCall>) => void) | null;
  postMessage: (reply: ExchangeReply, transfer: Transferable[]) => void;
}

const scope = self as unknown as WorkerScope;
const exchange = fetchExchange((input, init) => fetch(input, init));
const running = new Map<number, AbortController>();

scope.onmessage = (event) => {
  const call = event.data;
  if ('abort' in call) {
    running.get(call.id)?.abort();
    return;
  }
  const controller = new AbortController();
  running.set(call.id, controller);
  exchange(call.request, controller.signal)
    .then(
      (answer): ExchangeReply => ({ id: call.id, answer }),
      (error: unknown): ExchangeReply => {
        if (isAbort(error)) return { id: call.id, aborted: true };
        if (error instanceof NetworkFailure) return { id: call.id, network: error.text };
        // A body cut short while it was read: the same failure as a fetch that fails.
        return { id: call.id, network: String(error) };
      },
    )
    .then((reply) => {
      running.delete(call.id);
      scope.postMessage(reply, 'answer' in reply ? decodedTransfers(reply.answer.body) : []);
    });
};
