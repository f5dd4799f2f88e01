import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MetricsStore } from '../src/store/types.ts';
import { buildTestApp } from './helper.ts';

describe('request hygiene', () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await buildTestApp({ requestTimeoutMs: 400 });
  });
  afterAll(() => app.close());

  it.each([
    [{ algorithm: null }, /algorithm/],
    [{ enabled: 1 }, /enabled.*boolean/],
    [{ enabled: 'true' }, /enabled.*boolean/],
    [{ threshold: '3' }, /threshold.*integer/],
    [{ threshold: 2.5 }, /threshold.*integer/],
  ])('a body is taken as sent, not coerced: %j → 400', async (payload, reason) => {
    const res = await app.inject({ method: 'PUT', url: '/api/v1/adaptive-routing', payload });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ statusCode: 400, error: 'Bad Request' });
    expect(res.json().message).toMatch(reason);
  });

  it.each(['Infinity', '-Infinity', '1e400', '1e3', '0x10', '1.5', ' 5', '5 ', '+5', 'NaN', ''])(
    'a query number must be a plain decimal: limit=%s → 400',
    async (limit) => {
      const res = await app.inject(`/api/v1/links?limit=${encodeURIComponent(limit)}`);
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toMatch(/limit/);
    },
  );

  it('accepts plain decimals and refuses a repeated or unknown parameter', async () => {
    expect((await app.inject('/api/v1/links?limit=50')).statusCode).toBe(200);
    expect((await app.inject('/api/v1/links?limit=5&limit=6')).statusCode).toBe(400);
    expect((await app.inject('/api/v1/links?limitt=5')).statusCode).toBe(400);
    expect((await app.inject('/api/v1/analysis?pattern=bisection&limit=0x10')).statusCode).toBe(400);
  });

  it('every API GET route refuses a parameter its schema does not name (routes enumerated)', async () => {
    const routes = app.routeTable
      .entries()
      .filter((r) => r.url.startsWith('/api/') && r.methods.includes('GET'));
    expect(routes.length).toBeGreaterThan(10);
    let asked = 0;
    for (const route of routes) {
      const query = route.query as { additionalProperties?: unknown; required?: unknown[] };
      expect({ url: route.url, closed: query?.additionalProperties }).toEqual({
        url: route.url,
        closed: false,
      });
      if (query.required?.length) continue; // a missing required parameter would answer first
      const url = route.url.replace(/:[^/]+/g, '1');
      const res = await app.inject(`${url}?notAParameter=1`);
      expect({ url, status: res.statusCode }).toEqual({ url, status: 400 });
      expect(res.json().message).toBe('querystring has an unknown parameter "notAParameter"');
      asked++;
    }
    expect(asked).toBeGreaterThan(5);
  });

  it.each([
    [{ pattern: 'storage', server: 'nodeA', op: 'read', ioSize: 1e300 }, /ioSize/],
    [{ pattern: 'storage', server: 'nodeA', op: 'read', ioSize: 'lots' }, /ioSize/],
    [{ pattern: 'iperf', from: 'nodeA', to: 'nodeC', duration: -1 }, /duration/],
    [{ pattern: 'iperf', from: 'nodeA', to: 'nodeC', duration: 1e12 }, /duration/],
    [{ pattern: 'pairs', pairs: [['nodeA', 'nodeC']], demand: 1e20 }, /demand/],
    [{ pattern: 'pairs', pairs: [['nodeA', 'nodeC']], messageSize: 2 ** 41 }, /messageSize/],
    [{ pattern: 'pairs', pairs: [['nodeA', 'nodeC']], messageSize: 'x'.repeat(40) }, /messageSize/],
  ])('every quantity is bounded: %j → 400 naming the field', async (payload, field) => {
    const res = await app.inject({ method: 'POST', url: '/api/v1/traffic', payload });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(field);
  });

  it('answers a known path with a wrong method 405 and Allow, TRACE 405 everywhere', async () => {
    const post = await app.inject({ method: 'POST', url: '/api/v1/topology', payload: {} });
    expect(post.statusCode).toBe(405);
    expect(post.headers.allow).toBe('GET, HEAD');
    expect(post.json()).toMatchObject({ statusCode: 405, error: 'Method Not Allowed' });
    const patch = await app.inject({ method: 'PATCH', url: '/api/v1/traffic', payload: {} });
    expect(patch.statusCode).toBe(405);
    expect(patch.headers.allow).toBe('DELETE, GET, HEAD, POST');
    for (const url of ['/api/v1/health', '/', '/api/v1/nothing']) {
      const trace = await app.inject({ method: 'TRACE' as 'GET', url });
      expect(trace.statusCode, url).toBe(405);
      expect(trace.body).not.toMatch(/TRACE \//);
    }
    const missing = await app.inject({ method: 'POST', url: '/api/v1/nothing', payload: {} });
    expect(missing.json()).toMatchObject({ statusCode: 404, error: 'Not Found' });
  });

  it('answers a body over 1 MiB 413 Payload Too Large', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/v1/traffic',
      headers: { 'content-type': 'application/json' },
      payload: `{"pattern":"pairs","pairs":[${'["nodeA","nodeC"],'.repeat(70_000)}["nodeA","nodeC"]]}`,
    });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toMatchObject({ error: 'Payload Too Large' });
  });

  it('documents 405 and 413 (and 401/403 on changes) in the OpenAPI document', async () => {
    const doc = (await app.inject('/api/v1/openapi.json')).json();
    const post = doc.paths['/api/v1/traffic'].post;
    expect(Object.keys(post.responses)).toEqual(expect.arrayContaining(['400', '401', '403', '405', '413']));
    // On loopback the token is not needed (a loopback Host is): the document says so.
    expect(post.security).toEqual([{}, { bearer: [] }]);
    expect(Object.keys(doc.paths['/api/v1/links'].get.responses)).toContain('405');
    expect(doc.paths['/api/v1/links'].get.security).toBeUndefined();
    expect(Object.keys(doc.paths['/api/v1/jobs/{id}'].get.responses)).toContain('414');
    const beyond = await buildTestApp({ listenHost: '0.0.0.0', apiToken: 's3cret' });
    try {
      const protectedDoc = (await beyond.inject('/api/v1/openapi.json')).json();
      expect(protectedDoc.paths['/api/v1/traffic'].post.security).toEqual([{ bearer: [] }]);
    } finally {
      await beyond.close();
    }
  });

  it('a method that carries a body but no route takes (QUERY) is 405 with Allow, not a 400 for its missing Content-Type', async () => {
    const own = await buildTestApp();
    const address = await own.listen({ host: '127.0.0.1', port: 0 });
    const answer = await new Promise<{ status: number; allow: string | undefined }>((resolve, reject) => {
      const req = httpRequest(`${address}/api/v1/health`, { method: 'QUERY' }, (res) => {
        res.resume();
        resolve({ status: res.statusCode ?? 0, allow: res.headers.allow });
      });
      req.on('error', reject);
      req.end();
    });
    await own.close();
    expect(answer).toEqual({ status: 405, allow: 'GET, HEAD' });
  });

  it('drops a request whose body never arrives in full, and keeps serving others', async () => {
    const address = await app.listen({ host: '127.0.0.1', port: 0 });
    const port = Number(new URL(address).port);
    const started = Date.now();
    const closedAfterMs = await new Promise<number>((resolve, reject) => {
      const socket = connect(port, '127.0.0.1');
      socket.on('error', reject);
      socket.write(
        'POST /api/v1/traffic HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"pat',
      );
      socket.resume();
      socket.on('close', () => resolve(Date.now() - started));
    });
    // 400 ms limit, checked every 100 ms: well under the 30 s default, far from minutes.
    expect(closedAfterMs).toBeLessThan(3000);
    expect((await fetch(`${address}/api/v1/topology`)).status).toBe(200);
  });
});

describe('/health beyond this machine', () => {
  const failing: MetricsStore = {
    kind: 'prometheus',
    rates: async () => ({
      timeMs: Date.now(),
      ok: false,
      error: 'Prometheus at http://10.9.8.7:9090 answered HTTP 503',
      lastSampleAgeSeconds: null,
      ports: new Map(),
    }),
    close: async () => undefined,
  };
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await buildTestApp({ store: failing, listenHost: '0.0.0.0', apiToken: 's3cret' });
  });
  afterAll(() => app.close());

  it('hides internal addresses from remote clients without the token', async () => {
    const remote = (await app.inject({ url: '/api/v1/health', remoteAddress: '192.0.2.10' })).json();
    expect(remote).toMatchObject({ status: 'degraded', error: 'Prometheus at <address> answered HTTP 503' });
    expect(JSON.stringify(remote)).not.toMatch(/10\.9\.8\.7/);
    const withToken = await app.inject({
      url: '/api/v1/health',
      remoteAddress: '192.0.2.10',
      headers: { authorization: 'Bearer s3cret' },
    });
    expect(withToken.json().error).toMatch(/http:\/\/10\.9\.8\.7:9090/);
    const local = await app.inject({ url: '/api/v1/health', remoteAddress: '127.0.0.1' });
    expect(local.json().error).toMatch(/10\.9\.8\.7/);
  });
});
