import { STATUS_CODES } from 'node:http';
import { type ErrorBody, ErrorReply } from '@fabscope/contracts';
import { NoRouteError, UnknownNodeError } from '@fabscope/topology';
import type { FastifyError, FastifyInstance, FastifyReply } from 'fastify';
import { UpstreamError } from '../emulator-client.ts';
import { InvalidRequestError, NoEmulatorError, NoHistoryError, NotFoundError } from '../errors.ts';
import { ProviderError } from '../fabric-manager/provider.ts';
import { JobSourceError } from '../jobs/job.ts';
import { TimeParamError } from '../lib/time-params.ts';
import { SmTablesNotReadError } from '../sm-tables/origin.ts';
import { CursorError } from './listings.ts';

const causes = new WeakMap<FastifyReply, { cause: string; error?: Error }>();

/** A route's documented error answers, `{400: ErrorReply, …}`. */
export function errorReplies<const C extends number>(...codes: C[]): Record<C, typeof ErrorReply> {
  return Object.fromEntries(codes.map((code) => [code, ErrorReply])) as Record<C, typeof ErrorReply>;
}

/** Records why `reply` fails, for its 5xx log line (`error`: a stack worth keeping). */
export function noteCause(reply: FastifyReply, cause: string, error?: Error): void {
  causes.set(reply, error ? { cause, error } : { cause });
}

/** Answers `statusCode` with its reason phrase: the one way routes and hooks answer errors; returns the reply. */
export function sendError(reply: FastifyReply, statusCode: number, message: string, headers?: object) {
  if (statusCode >= 500) noteCause(reply, message);
  if (headers) reply.headers(headers);
  const body: ErrorBody = { statusCode, error: STATUS_CODES[statusCode] ?? 'Error', message };
  return reply.code(statusCode).send(body);
}

/** Every 5xx leaves one log line: request id (also `x-request-id`), method, route, status and cause. */
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

/** Every domain error a route lets through and its status; upstream errors and cursors carry their own. */
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

export function statusOfError(error: unknown): number | undefined {
  for (const [type, status] of STATUS_OF_ERROR) {
    if (error instanceof type) return typeof status === 'number' ? status : status(error as never);
  }
  return undefined;
}

/** Answers what a handler throws: a domain error by the table, a Fastify 4xx as given, else 500 without internals. */
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
