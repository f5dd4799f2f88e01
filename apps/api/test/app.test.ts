import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from './helper.ts';

// A collector that cannot be reached: the API must report stale data, not zeros.
const build = (listenHost: string, apiToken?: string): Promise<FastifyInstance> =>
  buildTestApp({ listenHost, apiToken });

describe('API on loopback, without an emulator or data', () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await build('127.0.0.1');
  });
  afterAll(() => app.close());

  it('serves the topology of the scenario', async () => {
    const res = await app.inject('/api/v1/topology');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.nodes).toHaveLength(8);
    expect(body.links).toHaveLength(8);
    expect(body.nodes.find((n: { name: string }) => n.name === 'core2')).toMatchObject({
      type: 'switch',
      tier: 2,
    });
  });

  it('reports missing data as stale, never as zeros', async () => {
    const health = (await app.inject('/api/v1/health')).json();
    expect(health).toMatchObject({ status: 'stale', store: 'embedded', lastSampleAgeSeconds: null });
    const links = (await app.inject('/api/v1/links?limit=3')).json();
    expect(links.links).toHaveLength(3);
    for (const l of links.links)
      expect(l).toMatchObject({ stale: true, utilization: null, bytesPerSecond: null });
    const summary = (await app.inject('/api/v1/summary')).json();
    expect(summary.hostTransmitBytesPerSecond).toBeNull();
    expect(summary.histogram.isl).toEqual(new Array(10).fill(0));
  });

  it('returns the static route with hops and link directions', async () => {
    const res = await app.inject('/api/v1/route?from=nodeA&to=nodeC');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      from: 'nodeA',
      to: 'nodeC',
      hops: [
        { node: 'nodeA', outPort: 1 },
        { node: 'edge1', inPort: 1, outPort: 4 },
        { node: 'core2', inPort: 1, outPort: 2 },
        { node: 'edge2', inPort: 4, outPort: 1 },
        { node: 'nodeC', inPort: 1 },
      ],
      links: ['nodeA/1->edge1/1', 'edge1/4->core2/1', 'core2/2->edge2/4', 'edge2/1->nodeC/1'],
    });
  });

  it.each([
    ['GET', '/api/v1/route?from=nodeA', undefined, /must have required property 'to'/],
    ['GET', '/api/v1/links?kind=cable', undefined, /kind/],
    ['GET', '/api/v1/links?limit=0', undefined, /limit/],
    ['PUT', '/api/v1/adaptive-routing', { threshold: 9 }, /threshold.*<= 7/],
    ['PUT', '/api/v1/adaptive-routing', { bogus: 1 }, /body has an unknown parameter "bogus"/],
    ['PUT', '/api/v1/adaptive-routing', {}, /fewer than 1 properties/],
    ['POST', '/api/v1/traffic', { pattern: 'pairs', pairs: [['nodeA', 'nodeA']] }, /paired with itself/],
    ['POST', '/api/v1/traffic', { pattern: 'pairs', pairs: [['nodeA', 'edge1']] }, /is a switch/],
    ['POST', '/api/v1/traffic', { pattern: 'pairs', pairs: [] }, /fewer than 1 items/],
    ['POST', '/api/v1/traffic', { pattern: 'storm', pairs: [['nodeA', 'nodeC']] }, /pattern/],
  ])('%s %s → 400 with a reason', async (method, url, payload, reason) => {
    const res = await app.inject({ method: method as 'GET', url, ...(payload ? { payload } : {}) });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(reason);
  });

  it.each([
    ['GET', '/api/v1/route?from=nodeA&to=nodeZ', undefined, /unknown node "nodeZ"/],
    ['POST', '/api/v1/traffic', { pattern: 'pairs', pairs: [['nodeA', 'nodeZ']] }, /unknown node "nodeZ"/],
  ])('%s %s names what the fabric lacks → 404', async (method, url, payload, reason) => {
    const res = await app.inject({ method: method as 'GET', url, ...(payload ? { payload } : {}) });
    expect(res.statusCode).toBe(404);
    expect(res.json().message).toMatch(reason);
  });

  it('answers malformed JSON with 400', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/v1/traffic',
      headers: { 'content-type': 'application/json' },
      payload: '{"pattern": "pairs", ',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/JSON/i);
  });

  it('answers an unknown API path with 404 JSON', async () => {
    const res = await app.inject('/api/v1/nothing-here');
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ statusCode: 404, message: 'no route GET /api/v1/nothing-here' });
  });

  it('says 409 for valid control requests when no emulator is attached', async () => {
    const res = await app.inject({
      method: 'PUT',
      url: '/api/v1/adaptive-routing',
      payload: { enabled: true },
    });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toMatch(/no emulator/);
  });

  it('serves an OpenAPI 3 document describing every route', async () => {
    const doc = (await app.inject('/api/v1/openapi.json')).json();
    expect(doc.openapi).toMatch(/^3\./);
    for (const path of [
      '/api/v1/health',
      '/api/v1/links',
      '/api/v1/route',
      '/api/v1/traffic',
      '/api/v1/adaptive-routing',
    ]) {
      expect(Object.keys(doc.paths)).toContain(path);
    }
    expect(doc.paths['/api/v1/adaptive-routing'].put.requestBody).toBeDefined();
  });
});

describe('API listening beyond loopback', () => {
  it('refuses changes without the token and accepts them with it', async () => {
    const app = await build('0.0.0.0', 's3cret');
    try {
      const body = { enabled: true };
      const anonymous = await app.inject({ method: 'PUT', url: '/api/v1/adaptive-routing', payload: body });
      expect(anonymous.statusCode).toBe(401);
      const wrong = await app.inject({
        method: 'PUT',
        url: '/api/v1/adaptive-routing',
        payload: body,
        headers: { authorization: 'Bearer nope' },
      });
      expect(wrong.statusCode).toBe(401);
      const right = await app.inject({
        method: 'PUT',
        url: '/api/v1/adaptive-routing',
        payload: body,
        headers: { authorization: 'Bearer s3cret' },
      });
      expect(right.statusCode).toBe(409); // authorised; no emulator attached in this test
      expect((await app.inject('/api/v1/topology')).statusCode).toBe(200);
    } finally {
      await app.close();
    }
  });

  it('refuses every change when no token is configured', async () => {
    const app = await build('0.0.0.0');
    try {
      const res = await app.inject({ method: 'DELETE', url: '/api/v1/traffic' });
      expect(res.statusCode).toBe(403);
      expect(res.json().message).toMatch(/FABSCOPE_API_TOKEN/);
    } finally {
      await app.close();
    }
  });
});

describe('API server lifecycle', () => {
  it('ends open event streams when it closes, instead of hanging', async () => {
    const app = await build('127.0.0.1');
    const address = await app.listen({ host: '127.0.0.1', port: 0 });
    const response = await fetch(`${address}/api/v1/stream`);
    expect(response.headers.get('content-type')).toMatch(/text\/event-stream/);
    const reader = response.body?.getReader();
    const first = await reader?.read();
    expect(new TextDecoder().decode(first?.value)).toMatch(/^retry: \d+/);
    const started = Date.now();
    await app.close();
    // The stream ends (cleanly or by the socket closing) rather than staying open.
    try {
      for (;;) {
        const chunk = await reader?.read();
        if (!chunk || chunk.done) break;
      }
    } catch (error) {
      expect(String((error as Error).cause ?? error)).toMatch(/closed|terminated/);
    }
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('answers a missing build asset with 404, not the app page', async () => {
    const app = await build('127.0.0.1');
    try {
      const res = await app.inject('/assets/index-gone.js');
      expect(res.statusCode).toBe(404);
    } finally {
      await app.close();
    }
  });
});

describe('conditional GET of uncached answers', () => {
  it('a GET answer carries a validator of its text; asked again with it, 304 and no body', async () => {
    const app = await build('127.0.0.1');
    const url = '/api/v1/route?from=nodeA&to=nodeC';
    const first = await app.inject({ method: 'GET', url });
    expect(first.statusCode).toBe(200);
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^W\/"/);
    expect(first.headers['cache-control']).toBe('no-cache');
    const again = await app.inject({
      method: 'GET',
      url,
      headers: { 'if-none-match': etag },
    });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    // Another text, another validator: a stale one gets the whole answer.
    const stale = await app.inject({
      method: 'GET',
      url,
      headers: { 'if-none-match': 'W/"other"' },
    });
    expect(stale.statusCode).toBe(200);
    expect(stale.json()).toEqual(first.json());
    await app.close();
  });
});
