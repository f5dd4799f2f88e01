import { type ChildProcess, spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { fileURLToPath } from 'node:url';
import { freePort } from '@fabscope/test-support';
import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { EmulatorClient } from '../src/emulator-client.ts';
import { buildTestApp } from './helper.ts';

// The emulator (an upstream the API drives over HTTP) stopped, refusing, slow, or cutting its
// answer short: the API answers 502/504 naming it and how long it waited, never an internal
// error, never a silently empty body. Each case against a real process or server on 127.0.0.1.

const BIN = fileURLToPath(new URL('../../cli/bin/fabscope.js', import.meta.url));

/** Lines the app's logger wrote (JSON, one per line), as stderr would get them. */
function capturedLog() {
  const lines: string[] = [];
  let partial = '';
  const stream = {
    write(chunk: string) {
      const text = partial + chunk;
      const parts = text.split('\n');
      partial = parts.pop() ?? '';
      lines.push(...parts.filter((l) => l !== ''));
      return true;
    },
  } as unknown as NodeJS.WritableStream;
  return { stream, lines };
}

async function appAgainst(url: string, timeoutMs = 5000) {
  const log = capturedLog();
  const app = await buildTestApp({
    emulator: new EmulatorClient(url, timeoutMs),
    logger: { stream: log.stream },
  });
  return { app, log };
}

/** A real HTTP server on 127.0.0.1 answering every request with `handler`. */
async function upstream(
  handler: Parameters<typeof createServer>[1],
): Promise<{ url: string; server: Server }> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as { port: number }).port}`, server };
}

describe('the emulator as a process, then stopped', () => {
  let child: ChildProcess;
  let url: string;
  let app: FastifyInstance;
  let log: ReturnType<typeof capturedLog>;
  beforeAll(async () => {
    const port = await freePort();
    url = `http://127.0.0.1:${port}`;
    child = spawn(process.execPath, [BIN, 'emulator', '--listen', `127.0.0.1:${port}`], {
      env: { ...process.env, FABSCOPE_SCENARIO: 'ar-demo' },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    const deadline = Date.now() + 60_000;
    for (;;) {
      const up = await fetch(`${url}/v1/health`).then(
        (r) => r.ok,
        () => false,
      );
      if (up) break;
      if (Date.now() > deadline || child.exitCode !== null) throw new Error('the emulator did not start');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    ({ app, log } = await appAgainst(url));
  }, 90_000);
  afterAll(async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await app.close();
  });

  it('answers while it runs; once it is killed, 502 naming the emulator and the refusal', async () => {
    const running = await app.inject('/api/v1/traffic');
    expect(running.statusCode).toBe(200);
    child.kill('SIGKILL');
    await new Promise((resolve) => child.once('exit', resolve));
    // First pages share a read while one is as old as a read costs (milliseconds here).
    await new Promise((resolve) => setTimeout(resolve, 50));
    const res = await app.inject('/api/v1/traffic');
    expect(res.statusCode).toBe(502);
    const { message } = res.json() as { message: string };
    expect(message).toContain(`emulator at ${url}`);
    expect(message).toMatch(/refused the connection for GET \/v1\/flows\?limit=500 \(after \d+ ms\)/);
    // The 5xx left one log line with its request id, route and cause.
    const requestId = res.headers['x-request-id'] as string;
    const mine = log.lines.map((l) => JSON.parse(l)).filter((l) => l.reqId === requestId);
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({ route: '/api/v1/traffic', statusCode: 502, cause: message });
  });
});

describe('an emulator that fails half-way', () => {
  const servers: Server[] = [];
  const apps: FastifyInstance[] = [];
  afterEach(async () => {
    for (const app of apps.splice(0)) await app.close();
    for (const server of servers.splice(0)) {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('slower than the timeout: 504 naming the emulator and how long the API waited', async () => {
    const slow = await upstream((_req, res) => {
      setTimeout(() => res.end('{"flows":[]}'), 15_000).unref();
    });
    servers.push(slow.server);
    const { app } = await appAgainst(slow.url, 300);
    apps.push(app);
    const started = performance.now();
    const res = await app.inject('/api/v1/traffic');
    // At the timeout, not when the upstream would have answered (even on a busy machine).
    expect(performance.now() - started).toBeLessThan(10_000);
    expect(res.statusCode).toBe(504);
    expect(res.json().message).toMatch(
      new RegExp(
        `^emulator at ${slow.url} did not answer GET /v1/flows\\?limit=500 within 300 ms \\(waited \\d+ ms, no answer\\)`,
      ),
    );
  });

  it('headers sent, then the body stalls: 504, the answer not complete', async () => {
    const stalls = await upstream((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' });
      res.write('{"flows":[');
    });
    servers.push(stalls.server);
    const { app } = await appAgainst(stalls.url, 300);
    apps.push(app);
    const res = await app.inject('/api/v1/traffic');
    expect(res.statusCode).toBe(504);
    expect(res.json().message).toMatch(
      /did not answer GET \/v1\/flows\?limit=500 within 300 ms .*answer not complete/,
    );
  });

  it('a body cut mid-read: 502 saying it was cut, not an empty answer', async () => {
    const cuts = await upstream((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100000' });
      res.write('{"flows":[{"id":"f1","from":"nodeA"');
      setTimeout(() => res.socket?.destroy(), 50);
    });
    servers.push(cuts.server);
    const { app } = await appAgainst(cuts.url);
    apps.push(app);
    for (const url of ['/api/v1/traffic', '/api/v1/jobs']) {
      const res = await app.inject(url);
      expect(res.statusCode, url).toBe(502);
      expect(res.json().message).toMatch(
        /^emulator at .* cut its answer to GET \/v1\/(flows\?limit=500|jobs) short after \d+ ms/,
      );
    }
    // POST /traffic too (the 500 "internal error" of issue #29).
    const post = await app.inject({
      method: 'POST',
      url: '/api/v1/traffic',
      payload: { pattern: 'pairs', pairs: [['nodeA', 'nodeC']] },
    });
    expect(post.statusCode).toBe(502);
    expect(post.json().message).toMatch(/cut its answer to POST \/v1\/flows\?first=20 short/);
  });

  it('a kept-alive connection closed as a read goes out on it: asked again on a new connection', async () => {
    // Each connection's second request finds it closed (as after the emulator's idle timeout).
    let closed = 0;
    const closes = await upstream((req, res) => {
      const socket = req.socket as typeof req.socket & { served?: number };
      socket.served = (socket.served ?? 0) + 1;
      if (socket.served > 1) {
        closed++;
        socket.destroy();
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"faults":[]}');
    });
    servers.push(closes.server);
    const { app } = await appAgainst(closes.url);
    apps.push(app);
    for (let i = 0; i < 6; i++) {
      const res = await app.inject('/api/v1/faults');
      expect(res.statusCode, res.body).toBe(200);
    }
    expect(closed).toBeGreaterThan(0);
  });

  it('a complete answer that is not JSON, or empty: 502 saying so', async () => {
    const odd = await upstream((req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(req.url?.startsWith('/v1/flows') ? '<html>proxy error</html>' : '');
    });
    servers.push(odd.server);
    const { app } = await appAgainst(odd.url);
    apps.push(app);
    const html = await app.inject('/api/v1/traffic');
    expect(html.statusCode).toBe(502);
    expect(html.json().message).toMatch(
      /answered GET \/v1\/flows\?limit=500 with 24 bytes that are not a JSON object/,
    );
    const empty = await app.inject('/api/v1/faults');
    expect(empty.statusCode).toBe(502);
    expect(empty.json().message).toMatch(/answered GET \/v1\/faults with an empty body/);
  });

  it("the emulator's own 4xx still passes through with its reason", async () => {
    const refuses = await upstream((_req, res) => {
      res.writeHead(400, { 'content-type': 'application/json' });
      res.end('{"error":"unknown node \\"nodeZ\\""}');
    });
    servers.push(refuses.server);
    const { app, log } = await appAgainst(refuses.url);
    apps.push(app);
    const res = await app.inject('/api/v1/faults');
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('unknown node "nodeZ"');
    // 4xx leave no line at the default level.
    expect(log.lines).toEqual([]);
  });
});

describe('every 5xx leaves one log line', () => {
  it('an unexpected error: 500 "internal error" to the client, its cause and stack in the log', async () => {
    const log = capturedLog();
    const app = await buildTestApp({ logger: { stream: log.stream } });
    app.get('/api/v1/test-boom', async () => {
      throw new TypeError('boom in a handler');
    });
    try {
      const res = await app.inject('/api/v1/test-boom');
      expect(res.statusCode).toBe(500);
      expect(res.json().message).toBe('internal error');
      const lines = log.lines.map((l) => JSON.parse(l));
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatchObject({
        level: 50,
        reqId: res.headers['x-request-id'],
        method: 'GET',
        route: '/api/v1/test-boom',
        statusCode: 500,
        cause: 'TypeError: boom in a handler',
      });
      expect(lines[0].err.stack).toMatch(/boom in a handler/);
      // Not at the default level: one line per request (the access log is `info`, opt-in).
      await app.inject('/api/v1/topology');
      expect(log.lines).toHaveLength(1);
    } finally {
      await app.close();
    }
  });
});
