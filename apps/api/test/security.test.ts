import { connect } from 'node:net';
import { isLoopback as emulatorIsLoopback } from '@fabscope/emulator';
import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isLoopbackHost, loopbackRequestAllowed } from '../src/auth.ts';
import { ConfigError, configFromEnv } from '../src/config.ts';
import { buildTestApp } from './helper.ts';

/** One raw HTTP/1.1 request as written (no client normalises the target); resolves status and body. */
function rawRequest(
  port: number,
  method: string,
  target: string,
  headers: Record<string, string> = {},
  body = '',
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const lines = [
      `${method} ${target} HTTP/1.1`,
      ...Object.entries({
        host: `127.0.0.1:${port}`,
        connection: 'close',
        'content-type': 'application/json',
        'content-length': String(Buffer.byteLength(body)),
        ...headers,
      }).map(([k, v]) => `${k}: ${v}`),
    ];
    socket.write(`${lines.join('\r\n')}\r\n\r\n${body}`);
    let text = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk) => {
      text += chunk;
    });
    socket.on('error', reject);
    socket.on('close', () => resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0), text }));
  });
}

/** Spellings of `path` that a router might resolve to the same route, or a guard might miss. */
function variants(path: string, port: number): string[] {
  const encodedFirst = path.replace(/^\/(\w)/, (_m, c: string) => `/%${c.charCodeAt(0).toString(16)}`);
  const last = path.lastIndexOf('/') + 1;
  const encodedLast = `${path.slice(0, last)}%${path.charCodeAt(last).toString(16)}${path.slice(last + 1)}`;
  return [
    encodedFirst,
    encodedLast,
    encodedFirst.toUpperCase().replace('%', '%'),
    path.replace(/^\/(\w)/, (_m, c: string) => `/%25${c.charCodeAt(0).toString(16)}`),
    `http://127.0.0.1:${port}${path}`,
    `http://attacker.example${path}`,
    `//${path.slice(1)}`,
    `${path}/`,
    `${path}?`,
    `${path}?token=x`,
    `${path}#x`,
    path.toUpperCase(),
    path.replace('/api/', '/API/'),
    path.replace('/v1/', '/v1//'),
    path.replace('/v1/', '/v1/./'),
    path.replace('/v1/', '/v1/x/../'),
    path.replace('/v1/', '/v1%2f'),
    `${path};x`,
    `${path}%00`,
  ];
}

describe('authorization is decided on the route the router matched', () => {
  let app: FastifyInstance;
  let port: number;
  beforeAll(async () => {
    // Beyond loopback (the token is required); bound to 127.0.0.1 since tests stay on this machine.
    app = await buildTestApp({ listenHost: '0.0.0.0', apiToken: 's3cret' });
    await app.listen({ host: '127.0.0.1', port: 0 });
    port = (app.server.address() as { port: number }).port;
  });
  afterAll(() => app.close());

  const mutating = () =>
    app.routeTable
      .entries()
      .flatMap(({ url, methods }) =>
        methods.filter((m) => !['GET', 'HEAD', 'OPTIONS'].includes(m)).map((method) => ({ url, method })),
      );

  it('finds every mutating route in the router, and each one is reachable with the token', async () => {
    const found = mutating().map((r) => `${r.method} ${r.url}`);
    expect(found).toEqual(
      expect.arrayContaining([
        'PUT /api/v1/adaptive-routing',
        'POST /api/v1/traffic',
        'DELETE /api/v1/traffic',
        'POST /api/v1/faults',
        'DELETE /api/v1/faults',
      ]),
    );
    for (const { url, method } of mutating()) {
      const res = await rawRequest(port, method, url, { authorization: 'Bearer s3cret' }, '{}');
      // Reached: 409 (no emulator attached) or 400 (the body is checked after the token).
      expect([400, 409], `${method} ${url}`).toContain(res.status);
    }
  });

  it('refuses every spelling of every mutating route without the token (401/403) or finds no route', async () => {
    const seen = new Set<number>();
    for (const { url, method } of mutating()) {
      for (const target of [url, ...variants(url, port)]) {
        const res = await rawRequest(port, method, target, {}, '{}');
        seen.add(res.status);
        // Never reached: no 2xx, no 409 (the handler's answer without an emulator), no 400 (body checked).
        expect([400, 401, 403, 404, 405], `${method} ${target}`).toContain(res.status);
        if (res.status === 400) expect(res.text, `${method} ${target}`).not.toMatch(/"message":"body/);
      }
    }
    expect(seen.has(401)).toBe(true);
  });

  it('keeps reads open and says 401 with a reason phrase of its own', async () => {
    expect((await rawRequest(port, 'GET', '/api/v1/topology')).status).toBe(200);
    const res = await rawRequest(port, 'POST', '/%61pi/v1/faults', {}, '{"type":"restart"}');
    expect(res.status).toBe(401);
    expect(res.text).toMatch(/"error":"Unauthorized"/);
  });
});

describe('loopback mode: Host and Origin of this machine only (DNS rebinding)', () => {
  let app: FastifyInstance;
  let port: number;
  beforeAll(async () => {
    app = await buildTestApp({ listenHost: '127.0.0.1', allowedHosts: ['fabscope.lab'] });
    await app.listen({ host: '127.0.0.1', port: 0 });
    port = (app.server.address() as { port: number }).port;
  });
  afterAll(() => app.close());

  it.each([
    [{ host: 'attacker.example' }, 403],
    [{ host: 'attacker.example:8080' }, 403],
    [{ host: '127.0.0.1.nip.io' }, 403],
    [{ host: '127.evil.example' }, 403],
    [{ host: '' }, 403],
    [{ origin: 'http://attacker.example' }, 403],
    [{ origin: 'null' }, 403],
    [{ host: 'localhost:8080' }, 409],
    [{ host: '[::1]:8080' }, 409],
    [{ host: '127.0.0.2' }, 409],
    [{ host: 'fabscope.lab:8080', origin: 'http://fabscope.lab:8080' }, 409],
    [{ origin: 'http://localhost:5173' }, 409],
  ])('%j → %i', async (headers, status) => {
    const res = await rawRequest(port, 'PUT', '/api/v1/adaptive-routing', headers, '{"enabled":true}');
    expect(res.status).toBe(status);
    if (status === 403) expect(res.text).toMatch(/FABSCOPE_ALLOWED_HOSTS/);
  });

  it('checks the matched route, so encoded and absolute-form requests meet the same check', async () => {
    for (const target of ['/%61pi/v1/traffic', 'http://127.0.0.1/api/v1/traffic']) {
      const res = await rawRequest(port, 'DELETE', target, { host: 'attacker.example' });
      expect([403, 404], target).toContain(res.status);
    }
  });

  it('lets reads through whatever the Host (they change nothing)', async () => {
    expect((await rawRequest(port, 'GET', '/api/v1/topology', { host: 'attacker.example' })).status).toBe(
      200,
    );
  });
});

describe('loopback names', () => {
  it('are the same for the API and the emulator', () => {
    const hosts = fc.oneof(
      fc.ipV4(),
      fc.ipV6(),
      fc.domain(),
      fc.constantFrom('localhost', 'LOCALHOST', '[::1]', '::ffff:127.0.0.1', '127.0.0.1.nip.io', '127.x', ''),
    );
    fc.assert(
      fc.property(hosts, (host) => {
        expect(emulatorIsLoopback(host)).toBe(isLoopbackHost(host));
      }),
    );
    expect(isLoopbackHost('127.0.0.1.nip.io')).toBe(false);
    expect(isLoopbackHost('::ffff:127.0.0.1')).toBe(true);
  });

  it('allows a listed host and refuses a malformed Host header', () => {
    expect(loopbackRequestAllowed({ host: 'dash.lab:80' }, new Set(['dash.lab']))).toBeNull();
    expect(loopbackRequestAllowed({ host: 'a@127.0.0.1' }, new Set())).toMatch(/refused/);
    expect(loopbackRequestAllowed({}, new Set())).toMatch(/refused/);
  });

  it('FABSCOPE_ALLOWED_HOSTS and FABSCOPE_REQUEST_TIMEOUT_MS are read and checked at start', () => {
    const config = configFromEnv({
      FABSCOPE_ALLOWED_HOSTS: 'Dash.Lab, 10.0.0.5',
      FABSCOPE_REQUEST_TIMEOUT_MS: '500',
    });
    expect(config.allowedHosts).toEqual(['dash.lab', '10.0.0.5']);
    expect(config.requestTimeoutMs).toBe(500);
    expect(configFromEnv({}).requestTimeoutMs).toBe(30_000);
    expect(() => configFromEnv({ FABSCOPE_ALLOWED_HOSTS: 'http://x/' })).toThrow(ConfigError);
    expect(() => configFromEnv({ FABSCOPE_REQUEST_TIMEOUT_MS: '1e9' })).toThrow(/REQUEST_TIMEOUT/);
  });
});
