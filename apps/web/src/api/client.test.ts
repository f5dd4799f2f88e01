import { describe, expect, it } from 'vitest';
import { ApiError, describeError } from './apiError.ts';
import { createApiClient } from './client.ts';

interface Call {
  url: string;
  init: RequestInit | undefined;
}

function fakeFetch(status: number, body: unknown, calls: Call[] = []): typeof fetch {
  return async (input, init) => {
    calls.push({ url: String(input), init });
    const text = typeof body === 'string' ? body : JSON.stringify(body);
    return new Response(status === 204 ? null : text, { status });
  };
}

const arState = { enabled: true, threshold: 7, algorithm: 2, arFrequency: 0, lostRouteOnly: false };

describe('api client', () => {
  it('asks a live answer again conditionally: a 304 gives the same object, unread', async () => {
    const calls: Call[] = [];
    const flows = { flows: [], total: 0, jobs: [] };
    let next = 200;
    const api = createApiClient({
      fetch: async (input, init) => {
        calls.push({ url: String(input), init });
        if (next === 304) return new Response(null, { status: 304, headers: { etag: 'W/"a"' } });
        return new Response(JSON.stringify(flows), { status: 200, headers: { etag: 'W/"a"' } });
      },
    });
    const first = await api.getTraffic();
    next = 304;
    const second = await api.getTraffic();
    expect(second).toBe(first);
    const headers = (calls[1]?.init?.headers ?? {}) as Record<string, string>;
    expect(headers['If-None-Match']).toBe('W/"a"');
    expect(calls[1]?.init?.cache).toBe('no-store');
    // An answer of other content replaces it.
    next = 200;
    expect(await api.getTraffic()).not.toBe(first);
  });

  it('GETs typed JSON without a token', async () => {
    const calls: Call[] = [];
    const api = createApiClient({ fetch: fakeFetch(200, arState, calls), getToken: () => 'secret' });
    await expect(api.getAdaptiveRouting()).resolves.toEqual(arState);
    expect(calls[0]?.url).toBe('/api/v1/adaptive-routing');
    const headers = (calls[0]?.init?.headers ?? {}) as Record<string, string>;
    expect(headers.Authorization).toBeUndefined();
  });

  it('asks history with the window and every link id', async () => {
    const calls: Call[] = [];
    const api = createApiClient({ fetch: fakeFetch(200, { series: [] }, calls) });
    const window = { from: '2026-01-01T00:00:00.000Z', to: '2026-01-01T00:05:00.000Z', step: 2 };
    await api.getLinksHistory(['a/1->b/2', 'b/2->a/1'], window);
    const url = new URL(calls[0]?.url ?? '', 'http://x');
    expect(url.pathname).toBe('/api/v1/links/history');
    expect(url.searchParams.getAll('id')).toEqual(['a/1->b/2', 'b/2->a/1']);
    expect(url.searchParams.get('step')).toBe('2');
    expect(url.searchParams.get('from')).toBe(window.from);
    await api.getSummaryAt(window.to);
    expect(calls[1]?.url).toBe(`/api/v1/summary?time=${encodeURIComponent(window.to)}`);
  });

  it('sends the bearer token and a JSON body with changes', async () => {
    const calls: Call[] = [];
    const api = createApiClient({ fetch: fakeFetch(200, arState, calls), getToken: () => 'secret' });
    await api.putAdaptiveRouting({ enabled: true });
    const init = calls[0]?.init;
    expect(init?.method).toBe('PUT');
    expect(init?.body).toBe('{"enabled":true}');
    const headers = (init?.headers ?? {}) as Record<string, string>;
    expect(headers.Authorization).toBe('Bearer secret');
    expect(headers['Content-Type']).toBe('application/json');
  });

  it('passes the AbortSignal through and rethrows aborts as such', async () => {
    const controller = new AbortController();
    const api = createApiClient({
      fetch: async (_input, init) => {
        expect(init?.signal).toBe(controller.signal);
        throw new DOMException('aborted', 'AbortError');
      },
    });
    controller.abort();
    await expect(api.getTopology(controller.signal)).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('explains a 401 with and without a token', async () => {
    const without = createApiClient({ fetch: fakeFetch(401, { error: 'unauthorized' }) });
    await expect(without.stopTraffic()).rejects.toThrow(
      /Unauthorized \(401\).*Enter the API token in Settings/,
    );
    const withToken = createApiClient({
      fetch: fakeFetch(401, { error: 'unauthorized' }),
      getToken: () => 'x',
    });
    await expect(withToken.stopTraffic()).rejects.toThrow(/rejected the API token/);
  });

  it('maps 4xx error bodies to readable messages', async () => {
    const api = createApiClient({
      fetch: fakeFetch(400, { error: 'bad_request', message: 'threshold must be 0..7' }),
    });
    const error = await api.putAdaptiveRouting({ threshold: 9 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(400);
    expect((error as ApiError).code).toBe('bad_request');
    expect(describeError(error)).toBe('Request failed (400): threshold must be 0..7');
  });

  it('reports unreachable APIs and non-JSON answers', async () => {
    const down = createApiClient({
      fetch: async () => {
        throw new TypeError('Failed to fetch');
      },
    });
    await expect(down.getTraffic()).rejects.toThrow('Cannot reach the API (GET /api/v1/traffic?limit=5000)');
    const html = createApiClient({ fetch: fakeFetch(200, '<html>') });
    await expect(html.getTraffic()).rejects.toThrow(/not JSON/);
    const proxy = createApiClient({ fetch: fakeFetch(502, '<html>bad gateway</html>') });
    await expect(proxy.getTraffic()).rejects.toThrow('Server error (502): the API failed to answer');
  });

  it('asks for routes and analyses with encoded queries, and sends faults with the token', async () => {
    const calls: { url: string; init: RequestInit | undefined }[] = [];
    const api = createApiClient({
      fetch: async (input, init) => {
        calls.push({ url: String(input), init });
        return new Response('{"faults":[]}', { status: 200 });
      },
      getToken: () => 'secret',
    });
    await api.getRoute('nodeA', 'lid:3');
    await api.getAnalysis('pairs:nodeA-nodeC,nodeB-nodeD');
    await api.injectFault({ type: 'link-down', link: 'edge1/4--core2/1' });
    await api.clearFaults();
    expect(calls[0]?.url).toBe('/api/v1/route?from=nodeA&to=lid%3A3');
    expect(calls[1]?.url).toBe('/api/v1/analysis?pattern=pairs%3AnodeA-nodeC%2CnodeB-nodeD');
    expect(calls[2]?.init?.method).toBe('POST');
    expect(calls[2]?.init?.body).toBe('{"type":"link-down","link":"edge1/4--core2/1"}');
    const headers = (i: number) => (calls[i]?.init?.headers ?? {}) as Record<string, string>;
    expect(headers(2).Authorization).toBe('Bearer secret');
    expect(calls[3]?.init?.method).toBe('DELETE');
    // GETs never carry the token
    expect(headers(0).Authorization).toBeUndefined();
  });
  it('asks a busy API again after its Retry-After (GETs only, a few times), then shows the error', async () => {
    const busy = () =>
      new Response('{"statusCode":503,"error":"Service Unavailable","message":"the API is under pressure"}', {
        status: 503,
        headers: { 'retry-after': '0' },
      });
    let calls = 0;
    const recovers = createApiClient({
      fetch: async () => (++calls < 3 ? busy() : new Response('{"flows":[],"total":0}', { status: 200 })),
    });
    await expect(recovers.getTraffic()).resolves.toMatchObject({ total: 0 });
    expect(calls).toBe(3);
    calls = 0;
    const stays = createApiClient({
      fetch: async () => {
        calls++;
        return busy();
      },
    });
    await expect(stays.getTraffic()).rejects.toThrow(/503/);
    expect(calls).toBe(12);
    // A change is never sent twice.
    calls = 0;
    await expect(stays.injectFault({ type: 'link-down', link: 'a/1--b/1' })).rejects.toThrow(/503/);
    expect(calls).toBe(1);
  });
});
