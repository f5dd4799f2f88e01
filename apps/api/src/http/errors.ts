import { STATUS_CODES } from 'node:http';
import type { ErrorBody } from '@fabscope/contracts';
import { NoRouteError, UnknownNodeError } from '@fabscope/topology';
import type { FastifyError, FastifyInstance, FastifyReply } from 'fastify';
import { UpstreamError } from '../emulator-client.ts';
import { InvalidRequestError, NoEmulatorError, NoHistoryError, NotFoundError } from '../errors.ts';
import { ProviderError } from '../fabric-manager/provider.ts';
import { JobSourceError } from '../jobs/job.ts';
import { TimeParamError } from '../lib/time-params.ts';
import { SmTablesNotReadError } from '../sm-tables/origin.ts';
import { CursorError } from './listings.ts';

export function errorBody(statusCode: number, message: string): ErrorBody {
  return { statusCode, error: STATUS_CODES[statusCode] ?? 'Error', message };
}

/** Why each reply being answered 5xx failed, for its log line (installErrorTrace). */
const causes = new WeakMap<FastifyReply, { cause: string; error?: Error }>();

/** Records why `reply` fails, for the one log line its 5xx leaves (`error`: a stack worth keeping). */
export function noteCause(reply: FastifyReply, cause: string, error?: Error): void {
  causes.set(reply, error ? { cause, error } : { cause });
}

/**
 * Answers `statusCode` with its own reason phrase (404 Not Found, 413 Payload Too Large …): the one
 * way every route and hook answers an error. Returns the reply, sent (a hook returns it to stop the
 * request there).
 */
export function sendError(reply: FastifyReply, statusCode: number, message: string, headers?: object) {
  if (statusCode >= 500) noteCause(reply, message);
  if (headers) reply.headers(headers);
  return reply.code(statusCode).send(errorBody(statusCode, message));
}

/**
 * Every 5xx leaves one line in the log (stderr, at `error`, seen at the default level `warn`):
 * the request id (also sent as `x-request-id`), the method and route, the status and the cause —
 * whichever part of the server answered it (a route, the error handler, the pressure limits).
 */
export function installErrorTrace(app: FastifyInstance): void {
  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });
  app.addHook('onResponse', async (request, reply) => {
    if (reply.statusCode < 500) return;
    const noted = causes.get(reply);
    const route = request.routeOptions.url ?? request.url.split('?')[0];
    const cause = noted?.cause ?? 'no cause recorded';
    request.log.error(
      {
        method: request.method,
        route,
        statusCode: reply.statusCode,
        cause,
        responseTimeMs: Math.round(reply.elapsedTime),
        ...(noted?.error ? { err: noted.error } : {}),
      },
      `${reply.statusCode} ${request.method} ${route}: ${cause}`,
    );
  });
}

type ErrorClass = abstract new (...args: never[]) => Error;

/**
 * Every domain error a route lets through and the status it is answered with, its message as the
 * answer's. Upstream failures (the emulator, Prometheus, a fabric manager) and cursors carry their
 * own status: an upstream's 4xx passes through, a failure is 502, no answer in time 504.
 */
const STATUS_OF_ERROR: readonly [ErrorClass, number | ((error: never) => number)][] = [
  [InvalidRequestError, 400],
  [TimeParamError, 400],
  [NotFoundError, 404],
  [UnknownNodeError, 404],
  [NoRouteError, 404],
  [NoEmulatorError, 409],
  [NoHistoryError, 409],
  [CursorError, (error: CursorError) => error.statusCode],
  [UpstreamError, (error: UpstreamError) => error.statusCode],
  [ProviderError, (error: ProviderError) => error.statusCode],
  [JobSourceError, 502],
  [SmTablesNotReadError, 503],
];

/** The status a domain error is answered with; undefined for any other error. */
export function statusOfError(error: unknown): number | undefined {
  for (const [type, status] of STATUS_OF_ERROR) {
    if (error instanceof type) return typeof status === 'number' ? status : status(error as never);
  }
  return undefined;
}

/**
 * Answers what a handler or hook throws: a domain error with its table status and message, a
 * Fastify 4xx as given, anything else 500 without its internals (they go to the log).
 */
export function installErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, _request, reply) => {
    const mapped = statusOfError(error);
    if (mapped !== undefined) return sendError(reply, mapped, error.message);
    const status = error.statusCode !== undefined && error.statusCode >= 400 ? error.statusCode : 500;
    if (status < 500) return sendError(reply, status, error.message);
    sendError(reply, status, 'internal error');
    noteCause(reply, `${error.name}: ${error.message}`, error);
    return reply;
  });
}
