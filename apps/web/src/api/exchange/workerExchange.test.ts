import { afterEach, describe, expect, it, vi } from 'vitest';
import { bodyOf, type Exchange, type ExchangeRequest, NetworkFailure } from './exchange.ts';
import type { ExchangeCall, ExchangeReply } from './exchangeWorker.ts';
import { fetchExchange } from './fetchExchange.ts';
import { workerExchange } from './workerExchange.ts';

const request: ExchangeRequest = {
  method: 'GET',
  url: '/api/v1/traffic?limit=5000',
  headers: { Accept: 'application/json' },
  body: null,
  noStore: true,
};

describe('an exchange as the client reads it', () => {
  it('reads the body as empty, JSON or not JSON', () => {
    expect(bodyOf('')).toEqual({ kind: 'empty' });
    expect(bodyOf('{"a":1}')).toEqual({ kind: 'json', value: { a: 1 } });
    expect(bodyOf('<html>')).toEqual({ kind: 'text' });
  });

  it('through fetch: status, ETag, Retry-After; a 304 is not read; a failed fetch is a NetworkFailure', async () => {
    const answer = await fetchExchange(
      async () => new Response('{"x":2}', { status: 503, headers: { etag: 'W/"e"', 'retry-after': '5' } }),
    )(request);
    expect(answer).toEqual({
      status: 503,
      ok: false,
      etag: 'W/"e"',
      retryAfter: '5',
      body: { kind: 'json', value: { x: 2 } },
    });
    const notModified = await fetchExchange(async () => new Response(null, { status: 304 }))(request);
    expect(notModified.body).toEqual({ kind: 'empty' });
    const down = fetchExchange(async () => {
      throw new TypeError('Failed to fetch');
    })(request);
    await expect(down).rejects.toBeInstanceOf(NetworkFailure);
    await expect(down).rejects.toMatchObject({ text: 'TypeError: Failed to fetch' });
    const aborted = fetchExchange(async () => {
      throw new DOMException('gone', 'AbortError');
    })(request);
    await expect(aborted).rejects.toMatchObject({ name: 'AbortError' });
  });
});

/** A stand-in for the browser's Worker: calls are answered by `answer`, in the order given. */
class StubWorker {
  static last: StubWorker | null = null;
  onmessage: ((event: MessageEvent<ExchangeReply>) => void) | null = null;
  onerror: ((event: Event) => void) | null = null;
  readonly calls: ExchangeCall[] = [];
  terminated = false;
  constructor() {
    StubWorker.last = this;
  }
  postMessage(call: ExchangeCall) {
    this.calls.push(call);
  }
  reply(reply: ExchangeReply) {
    this.onmessage?.({ data: reply } as MessageEvent<ExchangeReply>);
  }
  fail() {
    this.onerror?.({ preventDefault: () => {} } as Event);
  }
  terminate() {
    this.terminated = true;
  }
}

describe('exchanges in a worker', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    StubWorker.last = null;
  });

  const onPage = (): Exchange & { calls: ExchangeRequest[] } => {
    const calls: ExchangeRequest[] = [];
    const exchange = async (r: ExchangeRequest) => {
      calls.push(r);
      return {
        status: 200,
        ok: true,
        etag: null,
        retryAfter: null,
        body: { kind: 'json' as const, value: 'page' },
      };
    };
    return Object.assign(exchange, { calls });
  };

  it('runs on the page where there is no Worker', async () => {
    const page = onPage();
    const answer = await workerExchange(page)(request);
    expect(answer.body).toEqual({ kind: 'json', value: 'page' });
    expect(page.calls).toHaveLength(1);
  });

  it('posts each read with its absolute URL and gives each its own answer, or its network failure', async () => {
    vi.stubGlobal('Worker', StubWorker);
    vi.stubGlobal('location', { href: 'http://127.0.0.1:8080/?range=5m' });
    const page = onPage();
    const exchange = workerExchange(page);
    const first = exchange(request);
    const second = exchange({ ...request, url: '/api/v1/alarms' });
    const worker = StubWorker.last as StubWorker;
    expect(worker.calls.map((c) => ('request' in c ? c.request.url : null))).toEqual([
      'http://127.0.0.1:8080/api/v1/traffic?limit=5000',
      'http://127.0.0.1:8080/api/v1/alarms',
    ]);
    const [a, b] = worker.calls.map((c) => c.id);
    worker.reply({ id: b as number, network: 'TypeError: Failed to fetch' });
    worker.reply({
      id: a as number,
      answer: { status: 304, ok: false, etag: 'W/"t"', retryAfter: null, body: { kind: 'empty' } },
    });
    await expect(first).resolves.toMatchObject({ status: 304, etag: 'W/"t"' });
    await expect(second).rejects.toMatchObject({ text: 'TypeError: Failed to fetch' });
    expect(page.calls).toHaveLength(0);
  });

  it('an abort rejects at once and tells the worker; a worker that fails hands every read to the page', async () => {
    vi.stubGlobal('Worker', StubWorker);
    vi.stubGlobal('location', { href: 'http://127.0.0.1:8080/' });
    const page = onPage();
    const exchange = workerExchange(page);
    const controller = new AbortController();
    const aborted = exchange(request, controller.signal);
    const worker = StubWorker.last as StubWorker;
    controller.abort();
    await expect(aborted).rejects.toMatchObject({ name: 'AbortError' });
    expect(worker.calls.at(-1)).toEqual({ id: worker.calls[0]?.id, abort: true });
    const waiting = exchange(request);
    worker.fail();
    await expect(waiting).resolves.toMatchObject({ body: { kind: 'json', value: 'page' } });
    expect(worker.terminated).toBe(true);
    await expect(exchange(request)).resolves.toMatchObject({ body: { value: 'page' } });
    expect(page.calls).toHaveLength(2);
  });
});
