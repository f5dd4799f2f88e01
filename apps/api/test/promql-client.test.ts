import { createServer, type Server } from 'node:http';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorText, PromqlClient, QueryGate, tsdbUrl } from '../src/store/promql-client.ts';

/**
 * What VictoriaMetrics 1.79 (Debian's) answered, 503 in text/plain, to a query that waited for a
 * search slot longer than `-search.maxQueueDuration` — recorded from a real one started with
 * `-search.maxConcurrentRequests=1 -search.maxQueueDuration=0s` and twelve queries sent at once
 * (apps/cli/test/promql-client-victoria-metrics.test.ts provokes it for real). Its request URI
 * carries the whole query.
 */
const VM_OVER_LIMIT =
  'remoteAddr: "127.0.0.1:58628"; requestURI: /api/v1/query?query=sum%28max_over_time%28x%5B5m%5D%29+%2A+2%29; ' +
  'cannot handle more than 4 concurrent search requests during 10s; possible solutions: increase ' +
  '`-search.maxQueueDuration`; increase `-search.maxQueryDuration`; increase `-search.maxConcurrentRequests`; ' +
  'increase server capacity\n';

const ok = (result: unknown[] = []) =>
  JSON.stringify({ status: 'success', data: { resultType: 'vector', result } });

/** A fetch answering after `delays` (one per call, in call order), noting how many are in flight. */
function countingFetch(delays: number[], failing: Set<number>) {
  const seen = { inFlight: 0, most: 0, calls: 0, order: [] as string[] };
  const fetchImpl: typeof fetch = async (_url, init) => {
    const i = seen.calls++;
    seen.inFlight++;
    seen.most = Math.max(seen.most, seen.inFlight);
    seen.order.push(new URLSearchParams(init?.body as URLSearchParams).get('query') ?? '');
    try {
      await new Promise((resolve) => setTimeout(resolve, delays[i % delays.length] ?? 0));
      if (failing.has(i)) return new Response(VM_OVER_LIMIT, { status: 503 });
      return new Response(ok());
    } finally {
      seen.inFlight--;
    }
  };
  return { fetchImpl, seen };
}

describe('a bound on the queries in flight to one TSDB', () => {
  it('never has more than its bound in flight, answers every query, and starts them in the order asked', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 5 }),
        fc.array(fc.integer({ min: 0, max: 4 }), { minLength: 1, maxLength: 24 }),
        fc.uniqueArray(fc.nat(23), { maxLength: 6 }),
        async (max, delays, failing) => {
          const { fetchImpl, seen } = countingFetch(delays, new Set(failing));
          const gate = new QueryGate(max);
          // Two clients of one store share its gate: the bound is the store's, not a client's.
          const a = new PromqlClient({ url: 'http://tsdb.invalid', fetch: fetchImpl, gate });
          const b = new PromqlClient({ url: 'http://tsdb.invalid', fetch: fetchImpl, gate });
          const asked = delays.map((_, i) => `q${i}`);
          const answers = await Promise.allSettled(
            asked.map((q, i) => (i % 2 === 0 ? a.query(q) : b.queryRange(q, 0, 1000, 1000))),
          );
          expect(seen.most).toBeLessThanOrEqual(max);
          expect(seen.most).toBe(Math.min(max, delays.length));
          expect(seen.order).toEqual(asked);
          answers.forEach((answer, i) => {
            expect(answer.status).toBe(failing.includes(i) ? 'rejected' : 'fulfilled');
          });
          expect(gate.inFlight).toBe(0);
          expect(gate.queued).toBe(0);
        },
      ),
      { numRuns: 60 },
    );
  });

  it('a query whose caller gave up while it waited is never sent, and the others go on', async () => {
    const { fetchImpl, seen } = countingFetch([20], new Set());
    const client = new PromqlClient({ url: 'http://tsdb.invalid', fetch: fetchImpl, gate: new QueryGate(1) });
    const gaveUp = new AbortController();
    const first = client.query('first');
    const abandoned = client.query('abandoned', undefined, gaveUp.signal);
    const last = client.query('last');
    gaveUp.abort(new Error('the tick was stopped'));
    await expect(abandoned).rejects.toThrow('the tick was stopped');
    await Promise.all([first, last]);
    expect(seen.order).toEqual(['first', 'last']);
  });

  it('takes only whole numbers of at least one', () => {
    expect(() => new QueryGate(0)).toThrow(RangeError);
    expect(() => new QueryGate(1.5)).toThrow(RangeError);
  });
});

describe('a TSDB’s refusal keeps its own words', () => {
  let server: Server;
  let url: string;
  let answer: { status: number; type: string; body: string };
  beforeAll(async () => {
    server = createServer((_req, res) => {
      res.writeHead(answer.status, { 'content-type': answer.type });
      res.end(answer.body);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('VictoriaMetrics over its search limit: the status and its first line, without the request echoed', async () => {
    answer = { status: 503, type: 'text/plain; charset=utf-8', body: VM_OVER_LIMIT };
    const error = await new PromqlClient({ url }).query('up').catch((e: Error) => e);
    expect(error).toBeInstanceOf(Error);
    const message = (error as Error).message;
    expect(message).toMatch(
      /^PromQL \/api\/v1\/query answered HTTP 503: cannot handle more than 4 concurrent search requests during 10s; possible solutions/,
    );
    expect(message).not.toContain('remoteAddr');
    expect(message).not.toContain('requestURI');
  });

  it('a long plain-text body is cut to its first line, bounded', async () => {
    answer = { status: 502, type: 'text/html', body: `\n${'bad gateway '.repeat(100)}\nsecond line` };
    const message = ((await new PromqlClient({ url }).query('up').catch((e: Error) => e)) as Error).message;
    expect(message).toMatch(/^PromQL \/api\/v1\/query answered HTTP 502: bad gateway bad gateway/);
    expect(message).not.toContain('second line');
    expect(message.length).toBeLessThan(400);
  });

  it('Prometheus’ JSON error as it says it; an empty body said to be empty', async () => {
    answer = {
      status: 422,
      type: 'application/json',
      body: JSON.stringify({
        status: 'error',
        errorType: 'execution',
        error: 'query processing would load too many samples',
      }),
    };
    await expect(new PromqlClient({ url }).query('up')).rejects.toThrow(
      'answered HTTP 422: query processing would load too many samples',
    );
    answer = { status: 503, type: 'text/plain', body: '' };
    await expect(new PromqlClient({ url }).query('up')).rejects.toThrow('answered HTTP 503: no answer');
  });

  it('no answer within the timeout: says which query path and how long, counted from when it was sent', async () => {
    answer = { status: 200, type: 'application/json', body: ok() };
    const slow: typeof fetch = (_url, init) =>
      new Promise((_resolve, reject) =>
        init?.signal?.addEventListener('abort', () => reject(init.signal?.reason), { once: true }),
      );
    const gate = new QueryGate(1);
    const client = new PromqlClient({ url, timeoutMs: 50, fetch: slow, gate });
    const started = performance.now();
    // The second waits for the first's turn (50 ms), then has 50 ms of its own.
    const [first, second] = await Promise.allSettled([client.query('a'), client.query('b')]);
    expect(performance.now() - started).toBeGreaterThanOrEqual(95);
    for (const settled of [first, second]) {
      expect(settled.status).toBe('rejected');
      expect(((settled as PromiseRejectedResult).reason as Error).message).toBe(
        'PromQL /api/v1/query not answered within 0.05 s',
      );
    }
  });

  it('a success is read as before', async () => {
    answer = { status: 200, type: 'application/json', body: ok([{ metric: { a: '1' }, value: [1, '2'] }]) };
    expect(await new PromqlClient({ url }).query('up')).toEqual([{ metric: { a: '1' }, value: [1, '2'] }]);
  });

  it('errorText: the first non-empty line, VictoriaMetrics’ echo of the request left out', () => {
    expect(errorText(VM_OVER_LIMIT)).toBe(
      'cannot handle more than 4 concurrent search requests during 10s; possible solutions: increase `-search.maxQueueDuration`; increase `-search.maxQueryDuration`; increase `-search.maxConcurrentRequests`; increase server capacity',
    );
    expect(errorText('\r\n  no result  \r\nmore')).toBe('no result');
    expect(errorText('x'.repeat(1000))).toHaveLength(300);
  });
});

describe('the TSDB behind a path (a proxy serving it under /prometheus)', () => {
  it('keeps the base URL’s path, with or without its trailing slash', () => {
    expect(tsdbUrl('http://gw:9090', '/api/v1/query').href).toBe('http://gw:9090/api/v1/query');
    expect(tsdbUrl('http://gw:9090/', '/api/v1/query').href).toBe('http://gw:9090/api/v1/query');
    expect(tsdbUrl('http://gw/prometheus', '/api/v1/query').href).toBe('http://gw/prometheus/api/v1/query');
    expect(tsdbUrl('http://gw/a/prometheus/', 'api/v1/alerts').href).toBe(
      'http://gw/a/prometheus/api/v1/alerts',
    );
  });

  it('asks the path the proxy serves', async () => {
    const asked: string[] = [];
    const server = createServer((req, res) => {
      asked.push(req.url ?? '');
      res.setHeader('content-type', 'application/json');
      res.end(ok());
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as { port: number };
      await new PromqlClient({ url: `http://127.0.0.1:${port}/prometheus` }).query('up');
      expect(asked).toEqual(['/prometheus/api/v1/query']);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
