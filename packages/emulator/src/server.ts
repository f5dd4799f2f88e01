import { timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { type AddressInfo, isIP } from 'node:net';
import { PAGE_MAX } from '@fabscope/contracts/limits';
import { ARROW_STREAM_MEDIA_TYPE } from '@fabscope/contracts/media-types';
import { AdaptiveRoutingConfigError } from './ar-config.ts';
import type { Emulator, FlowFilter } from './emulator.ts';
import { FlowListings } from './flow-listings.ts';
import { type StartFlowsRequest, TrafficError } from './flows.ts';
import { QuantityError } from './units.ts';

export interface EmulatorServerOptions {
  /** Default 127.0.0.1 (loopback only). */
  host?: string;
  /** Default 0: an ephemeral port. */
  port?: number;
  /** Real-time tick (ms) at which the emulator clock catches up with the wall clock. Default 100. */
  tickMs?: number;
  /**
   * Bearer token required for changes (POST, PUT, DELETE) when listening beyond loopback; without
   * one, such a server refuses every change. Reads are always open.
   */
  token?: string | undefined;
}

/**
 * True for addresses only this machine can reach: 127.0.0.0/8, ::1, their IPv4-mapped form and
 * `localhost`; the same rules as the API's (apps/api/src/auth.ts), which a test checks.
 */
export function isLoopback(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  if (h === 'localhost') return true;
  if (isIP(h) === 4) return h.startsWith('127.');
  if (isIP(h) === 6) return h === '::1' || /^::ffff:127\.\d+\.\d+\.\d+$/.test(h);
  return false;
}

function checkChangeAllowed(request: IncomingMessage, protect: boolean, token: string | undefined): void {
  if (request.method === 'GET' || request.method === 'HEAD') return;
  if (!protect) {
    // On loopback, a page elsewhere whose name resolves to 127.0.0.1 (DNS rebinding) sends its own Host.
    const host = /^(\[[^\]]+\]|[^:]+)(:\d+)?$/.exec(request.headers.host ?? '')?.[1] ?? '';
    if (!isLoopback(host))
      throw new HttpError(403, `changes are refused for Host "${request.headers.host ?? ''}"`);
    return;
  }
  if (!token) {
    throw new HttpError(
      403,
      'changes are refused: the emulator listens beyond loopback and has no token set',
    );
  }
  const given = /^Bearer\s+(.+)$/i.exec(request.headers.authorization ?? '')?.[1]?.trim() ?? '';
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  if (a.length !== b.length || !timingSafeEqual(a, b)) {
    throw new HttpError(401, 'send Authorization: Bearer <token> to change the emulator');
  }
}

export interface EmulatorServer {
  /** e.g. http://127.0.0.1:40123 */
  url: string;
  close(): Promise<void>;
}

const MAX_BODY_BYTES = 1 << 20;

class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly allow?: string,
  ) {
    super(message);
  }
}

type Handler = (emulator: Emulator, body: unknown, query: URLSearchParams) => unknown;

const FLOW_FILTERS = ['from', 'to', 'job', 'link'] as const;

/** `GET /v1/flows?from=&to=&job=&link=`: each at most once, nothing else. */
function flowFilter(query: URLSearchParams): FlowFilter {
  const filter: FlowFilter = {};
  for (const key of new Set(query.keys())) {
    if (!(FLOW_FILTERS as readonly string[]).includes(key)) {
      throw new HttpError(
        400,
        `unknown parameter "${key}"; flows filter by ${FLOW_FILTERS.join(', ')} (or page with ${PAGE_PARAMS.join(', ')})`,
      );
    }
    const values = query.getAll(key);
    if (values.length > 1) throw new HttpError(400, `give "${key}" once`);
    filter[key as (typeof FLOW_FILTERS)[number]] = values[0] as string;
  }
  return filter;
}

/** Paging `GET /v1/flows`: `limit` opens a listing (`job` the only filter), `listing` + `offset` read on. */
const PAGE_PARAMS = ['limit', 'listing', 'offset'] as const;

/** The listings of each emulator served (a server's, one per emulator). */
const flowListings = new WeakMap<Emulator, FlowListings>();
function listingsOf(emulator: Emulator): FlowListings {
  let listings = flowListings.get(emulator);
  if (!listings) {
    listings = new FlowListings();
    flowListings.set(emulator, listings);
  }
  return listings;
}

/** One whole number of `query`'s `key` from `min` to `max`, or undefined when absent. */
function wholeNumber(query: URLSearchParams, key: string, min: number, max: number): number | undefined {
  const values = query.getAll(key);
  if (values.length === 0) return undefined;
  const n = Number(values[0]);
  if (values.length > 1 || !/^\d+$/.test(values[0] as string) || n < min || n > max) {
    throw new HttpError(400, `${key} must be one whole number from ${min} to ${max}`);
  }
  return n;
}

/**
 * `GET /v1/flows`: every flow (or those matching every filter given), or a page of a listing
 * (flow-listings.ts): `?limit=N[&job=]` its first page, `?listing=ID&offset=M&limit=N` the next
 * ones (410 once it is no longer held).
 */
function listFlows(emulator: Emulator, _body: unknown, query: URLSearchParams): unknown {
  const paged = PAGE_PARAMS.some((key) => query.has(key));
  if (!paged) return { flows: emulator.listFlows(flowFilter(query)) };
  for (const key of new Set(query.keys())) {
    if (key !== 'job' && !(PAGE_PARAMS as readonly string[]).includes(key)) {
      throw new HttpError(400, `"${key}" does not go with a page: a listing filters by job only`);
    }
  }
  const limit = wholeNumber(query, 'limit', 1, PAGE_MAX);
  if (limit === undefined) throw new HttpError(400, `a page needs limit (1 to ${PAGE_MAX})`);
  const jobs = query.getAll('job');
  if (jobs.length > 1) throw new HttpError(400, 'give "job" once');
  const job = jobs[0] ?? '';
  const listings = listingsOf(emulator);
  const id = query.getAll('listing');
  if (id.length === 0) {
    if (query.has('offset')) throw new HttpError(400, 'offset goes with listing');
    return listings.open(job, limit, emulator.flowsVersion(), emulator.nowMs(), () =>
      emulator.listFlows(job === '' ? {} : { job }),
    );
  }
  if (id.length > 1) throw new HttpError(400, 'give "listing" once');
  const offset = wholeNumber(query, 'offset', 0, Number.MAX_SAFE_INTEGER) ?? 0;
  const held = listings.jobOf(id[0] as string);
  if (held !== undefined && jobs.length > 0 && held !== job) {
    throw new HttpError(
      400,
      `listing ${id[0]} was read ${held === '' ? 'without a job' : `for job "${held}"`}`,
    );
  }
  const page = listings.page(id[0] as string, offset, limit);
  if (!page) {
    throw new HttpError(
      410,
      `listing ${id[0]} is no longer held (the newest 8 are): read the first page again, without listing`,
    );
  }
  if (offset > page.total) throw new HttpError(400, 'offset is past the end of the listing');
  return page;
}

/** At most this many flows in a summary of started flows (`POST /v1/flows?first=`). */
const MAX_FIRST_FLOWS = 1000;

/**
 * `POST /v1/flows`: every flow started (`{flows}`), or with `?first=N` a summary — how many
 * started, their jobs, their bytes/s together and the first N — so that a permutation at
 * fat-tree-27648 (~28k flows with their paths, ~10 MB) is not serialized and read whole. The
 * query is checked before anything starts.
 */
function startFlows(emulator: Emulator, body: unknown, query: URLSearchParams): unknown {
  for (const key of new Set(query.keys())) {
    if (key !== 'first') throw new HttpError(400, `unknown parameter "${key}"; POST /v1/flows takes first`);
  }
  const first = query.getAll('first');
  const n = Number(first[0]);
  if (
    first.length > 1 ||
    (first.length === 1 && (!/^\d+$/.test(first[0] as string) || n > MAX_FIRST_FLOWS))
  ) {
    throw new HttpError(400, `first must be one whole number from 0 to ${MAX_FIRST_FLOWS}`);
  }
  const flows = emulator.startFlows(body as StartFlowsRequest);
  if (first.length === 0) return { flows };
  let bytesPerSecond = 0;
  const jobs = new Set<string>();
  for (const f of flows) {
    bytesPerSecond += f.bytesPerSecond;
    jobs.add(f.job);
  }
  return { started: flows.length, jobs: [...jobs], bytesPerSecond, flows: flows.slice(0, n) };
}

/** An answer already serialized as JSON, in chunks (the port counters of a big fabric). */
class JsonChunks {
  constructor(readonly chunks: Buffer[]) {}
}

/** An answer already serialized as an Arrow IPC stream. */
class ArrowBytes {
  constructor(readonly bytes: Uint8Array) {}
}

/** `GET /v1/ports`: JSON, or with `format=arrow` the same document as an Arrow IPC stream. */
function ports(emulator: Emulator, _body: unknown, query: URLSearchParams): unknown {
  for (const key of new Set(query.keys())) {
    if (key !== 'format') throw new HttpError(400, `unknown parameter "${key}"; /v1/ports takes format`);
  }
  const format = query.getAll('format');
  if (format.length > 1 || (format[0] !== undefined && format[0] !== 'json' && format[0] !== 'arrow'))
    throw new HttpError(400, 'format is json (default) or arrow');
  return format[0] === 'arrow'
    ? new ArrowBytes(emulator.portCountersArrow())
    : new JsonChunks(emulator.portCountersJson());
}

/** The v1 contract of docs/architecture.md: path → method → handler. */
const routes: Record<string, Record<string, Handler>> = {
  '/v1/health': { GET: (e) => e.health() },
  '/v1/ports': { GET: ports },
  '/v1/routing': { GET: (e) => e.routingState() },
  '/v1/adaptive-routing': {
    GET: (e) => e.getAdaptiveRouting(),
    PUT: (e, body) => e.setAdaptiveRouting(body as Parameters<Emulator['setAdaptiveRouting']>[0]),
  },
  '/v1/faults': {
    GET: (e) => ({ faults: e.listFaults() }),
    POST: (e, body) => ({ fault: e.injectFault(body), faults: e.listFaults() }),
    DELETE: (e) => {
      e.clearFaults();
      return { faults: [] };
    },
  },
  '/v1/hosts': { GET: (e) => ({ timeMs: e.nowMs(), hosts: e.hostLoads() }) },
  '/v1/jobs': { GET: (e) => ({ jobs: e.listJobs() }) },
  '/v1/flows': {
    GET: listFlows,
    POST: startFlows,
    DELETE: (e) => {
      e.stopAllFlows();
      return { flows: [] };
    },
  },
};

/**
 * Serves the emulator over HTTP and runs its clock in real time: every `tickMs`, and before each
 * request, the emulator advances by the whole milliseconds of wall time elapsed since the last
 * advance (the fraction carries over).
 */
export function startEmulatorServer(
  emulator: Emulator,
  options: EmulatorServerOptions = {},
): Promise<EmulatorServer> {
  const { host = '127.0.0.1', port = 0, tickMs = 100, token } = options;
  const protect = !isLoopback(host);
  if (!(tickMs > 0)) throw new RangeError(`tickMs must be > 0, got ${tickMs}`);
  let last = performance.now();
  const catchUp = () => {
    const now = performance.now();
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
  if (body instanceof ArrowBytes) {
    response.writeHead(status, {
      'content-type': ARROW_STREAM_MEDIA_TYPE,
      'content-length': body.bytes.byteLength,
      'cache-control': 'no-store',
    });
    response.end(body.bytes);
    return;
  }
  if (body instanceof JsonChunks) {
    response.writeHead(status, {
      'content-type': 'application/json; charset=utf-8',
      'content-length': body.chunks.reduce((n, c) => n + c.length, 0),
      'cache-control': 'no-store',
    });
    for (const chunk of body.chunks) response.write(chunk);
    response.end();
    return;
  }
  const text = JSON.stringify(body);
  response.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
    'cache-control': 'no-store',
  });
  response.end(text);
}
