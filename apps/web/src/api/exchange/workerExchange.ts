import { type Exchange, type ExchangeAnswer, type ExchangeRequest, NetworkFailure } from './exchange.ts';
import type { ExchangeCall, ExchangeReply } from './exchangeWorker.ts';

interface Pending {
  resolve: (answer: ExchangeAnswer) => void;
  reject: (error: unknown) => void;
  request: ExchangeRequest;
  signal: AbortSignal | undefined;
}

/** Exchanges run in a worker, or through `fallback` on the page where no worker starts. */
export function workerExchange(fallback: Exchange): Exchange {
  let worker: Worker | null = null;
  let broken = typeof Worker === 'undefined';
  let nextId = 1;
  const pending = new Map<number, Pending>();

  const giveUp = () => {
    broken = true;
    worker?.terminate();
    worker = null;
    const left = [...pending.values()];
    pending.clear();
    for (const p of left) fallback(p.request, p.signal).then(p.resolve, p.reject);
  };

  const start = (): Worker | null => {
    if (worker || broken) return worker;
    try {
      worker = new Worker(new URL('./exchangeWorker.ts', import.meta.url), { type: 'module' });
    } catch {
      broken = true;
      return null;
    }
    worker.onmessage = (event: MessageEvent<ExchangeReply>) => {
      const reply = event.data;
      const p = pending.get(reply.id);
      if (!p) return;
      pending.delete(reply.id);
      if ('answer' in reply) p.resolve(reply.answer);
      else if ('network' in reply) p.reject(new NetworkFailure(reply.network));
      // Aborted: the page rejected it when its signal fired.
    };
    worker.onerror = (event) => {
      event.preventDefault();
      giveUp();
    };
    return worker;
  };

  return (request, signal) => {
    const w = start();
    if (!w) return fallback(request, signal);
    if (signal?.aborted) return Promise.reject(signal.reason ?? new DOMException('aborted', 'AbortError'));
    const id = nextId++;
    return new Promise<ExchangeAnswer>((resolve, reject) => {
      pending.set(id, { resolve, reject, request, signal });
      signal?.addEventListener(
        'abort',
        () => {
          if (!pending.delete(id)) return;
          worker?.postMessage({ id, abort: true } satisfies ExchangeCall);
          reject(signal.reason ?? new DOMException('aborted', 'AbortError'));
        },
        { once: true },
      );
      // The worker's own URL is not the page's: it is given the request's absolute URL.
      const absolute = { ...request, url: new URL(request.url, globalThis.location.href).href };
      w.postMessage({ id, request: absolute } satisfies ExchangeCall);
    });
  };
}
