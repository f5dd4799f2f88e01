import { STATUS_CODES } from 'node:http';
import type { ErrorBody } from '@fabscope/contracts';
import type { FastifyInstance, FastifyReply } from 'fastify';

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
