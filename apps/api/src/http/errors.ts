import { STATUS_CODES } from 'node:http';
import type { FastifyReply } from 'fastify';

/** The body of every 4xx and 5xx answer: the status, its reason phrase and what was wrong. */
export interface ErrorBody {
  statusCode: number;
  error: string;
  message: string;
}

export function errorBody(statusCode: number, message: string): ErrorBody {
  return { statusCode, error: STATUS_CODES[statusCode] ?? 'Error', message };
}

/** Answers `statusCode` with its own reason phrase (404 Not Found, 413 Payload Too Large …). */
export function sendError(reply: FastifyReply, statusCode: number, message: string, headers?: object) {
  if (headers) reply.headers(headers);
  return reply.code(statusCode).send(errorBody(statusCode, message));
}
