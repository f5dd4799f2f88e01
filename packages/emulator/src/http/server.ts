import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ARROW_STREAM_MEDIA_TYPE } from '@fabscope/contracts/media-types';
import type { Emulator } from '../emulator.ts';
import { AdaptiveRoutingConfigError } from '../routing/ar-config.ts';
import { TrafficError } from '../traffic/request.ts';
import { QuantityError } from '../units.ts';
import { checkChangeAllowed, isLoopback } from './access.ts';
import { HttpError } from './http-error.ts';
import { ArrowBytes, JsonChunks, routes } from './routes.ts';

export interface EmulatorServerOptions {
  /** Default 127.0.0.1 (loopback only). */
  host?: string;
  /** Default 0: an ephemeral port. */
  port?: number;
  /** Real-time tick (ms) at which the emulator clock catches up with the wall clock. Default 100. */
  tickMs?: number;
  /** Bearer token for changes when listening beyond loopback; without one such a server refuses them. */
  token?: string | undefined;
  /** The wall clock the emulator follows, in ms (default `performance.now`); tests give their own. */
  clock?: () => number;
  /**
   * First bring the emulator's clock up to `Date.now()`. One made with `startTimeMs: Date.now()` lags by the time it
   * took to build, and its readings would be stamped before the API's own events (a fault, a clear) that caused them.
   */
  fromDateNow?: boolean;
}

export interface EmulatorServer {
  url: string;
  close(): Promise<void>;
}

const MAX_BODY_BYTES = 1 << 20;

/** Serves the emulator over HTTP, advancing it by the wall time elapsed every `tickMs` and before each request. */
export function startEmulatorServer(
  emulator: Emulator,
  options: EmulatorServerOptions = {},
): Promise<EmulatorServer> {
  const {
    host = '127.0.0.1',
    port = 0,
    tickMs = 100,
    token,
    clock = () => performance.now(),
    fromDateNow = false,
  } = options;
  const protect = !isLoopback(host);
  if (!(tickMs > 0)) throw new RangeError(`tickMs must be > 0, got ${tickMs}`);
  if (fromDateNow) {
    const behind = Math.floor(Date.now() - emulator.nowMs());
    if (behind > 0) emulator.advance(behind);
  }
  let last = clock();
  const catchUp = () => {
    const now = clock();
    const whole = Math.floor(now - last);
    if (whole > 0) {
      emulator.advance(whole);
      last += whole;
    }
  };
  const timer = setInterval(catchUp, tickMs);
  timer.unref();

  const server = createServer((request, response) => {
    Promise.resolve()
      .then(() => checkChangeAllowed(request, protect, token))
      .then(() => handle(emulator, request, catchUp))
      .then(
        (answer) => send(response, 200, answer),
        (error: unknown) => {
          if (error instanceof HttpError) {
            if (error.allow) response.setHeader('Allow', error.allow);
            send(response, error.status, { error: error.message });
          } else if (
            error instanceof TrafficError ||
            error instanceof AdaptiveRoutingConfigError ||
            error instanceof QuantityError
          ) {
            send(response, 400, { error: error.message });
          } else {
            send(response, 500, { error: 'internal error' });
          }
        },
      );
  });
  return new Promise((resolve, reject) => {
    server.once('error', (error) => {
      clearInterval(timer);
      reject(error);
    });
    server.listen(port, host, () => {
      const address = server.address() as AddressInfo;
      const hostPart = address.family === 'IPv6' ? `[${address.address}]` : address.address;
      resolve({
        url: `http://${hostPart}:${address.port}`,
        close: () =>
          new Promise<void>((done, fail) => {
            clearInterval(timer);
            server.close((error) => (error ? fail(error) : done()));
            server.closeAllConnections();
          }),
      });
    });
  });
}

async function handle(emulator: Emulator, request: IncomingMessage, catchUp: () => void): Promise<unknown> {
  const url = new URL(request.url ?? '/', 'http://emulator');
  const path = url.pathname;
  const methods = routes[path];
  if (!methods) throw new HttpError(404, `no such path: ${path}`);
  const method = request.method ?? 'GET';
  const handler = methods[method];
  if (!handler) {
    const allow = Object.keys(methods).join(', ');
    throw new HttpError(405, `${method} is not allowed on ${path}; use ${allow}`, allow);
  }
  const body = method === 'PUT' || method === 'POST' ? await readJson(request) : undefined;
  catchUp();
  return handler(emulator, body, url.searchParams);
}

async function readJson(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) throw new HttpError(413, `body is larger than ${MAX_BODY_BYTES} bytes`);
    chunks.push(chunk as Buffer);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  if (text.trim() === '') throw new HttpError(400, 'request body must be JSON, got an empty body');
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new HttpError(400, `request body is not valid JSON: ${(error as Error).message}`);
  }
}

function send(response: ServerResponse, status: number, body: unknown): void {
  const json = 'application/json; charset=utf-8';
  const [type, chunks] =
    body instanceof ArrowBytes
      ? [ARROW_STREAM_MEDIA_TYPE, [body.bytes]]
      : body instanceof JsonChunks
        ? [json, body.chunks]
        : [json, [Buffer.from(JSON.stringify(body))]];
  response.writeHead(status, {
    'content-type': type,
    'content-length': chunks.reduce((n, c) => n + c.byteLength, 0),
    'cache-control': 'no-store',
  });
  for (const chunk of chunks) response.write(chunk);
  response.end();
}
