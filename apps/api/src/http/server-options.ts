import { AjvCompiler } from '@fastify/ajv-compiler';
import type { FastifyServerOptions } from 'fastify';
import { validationMessage } from './validation-message.ts';

export const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;
const BODY_LIMIT_BYTES = 1 << 20;
const MAX_HEADER_BYTES = 64 * 1024;

/** Bodies are validated as sent; query strings, text, are coerced to the schema's types. */
function validatorCompilers() {
  const pool = AjvCompiler();
  return {
    buildValidator(externalSchemas: unknown, ajvOptions: { customOptions?: object; plugins?: unknown[] }) {
      const options = (coerceTypes: false | 'array') => ({
        ...ajvOptions,
        customOptions: {
          ...ajvOptions.customOptions,
          removeAdditional: false,
          allErrors: false,
          // Errors carry the value that failed: a time off its grammar is quoted back.
          verbose: true,
          coerceTypes,
        },
      });
      const strict = pool(externalSchemas as never, options(false) as never);
      const textual = pool(externalSchemas as never, options('array') as never);
      return (route: { httpPart?: string }) =>
        route.httpPart === 'body' ? strict(route as never) : textual(route as never);
    },
  };
}

export function serverOptions(requestTimeoutMs: number, logger: FastifyServerOptions['logger']) {
  return {
    logger,
    // Idle keep-alive sockets would otherwise hold close() open.
    forceCloseConnections: true,
    bodyLimit: BODY_LIMIT_BYTES,
    // A client stalling in its headers or body is dropped; Node checks every connectionsCheckingInterval.
    requestTimeout: requestTimeoutMs,
    http: {
      headersTimeout: requestTimeoutMs,
      // Room for the longest query the schemas allow; beyond it Node answers 431 itself.
      maxHeaderSize: MAX_HEADER_BYTES,
      connectionsCheckingInterval: Math.max(50, Math.min(5000, Math.floor(requestTimeoutMs / 4))),
    },
    // Longer than clients keep an idle connection, so the server never closes a socket a request races.
    keepAliveTimeout: 65_000,
    // Longer than any path parameter's maxLength: a long id is the schema's 400, only past this 414.
    routerOptions: { maxParamLength: 1024 },
    schemaController: { compilersFactory: validatorCompilers() as never },
    schemaErrorFormatter: ((errors, dataVar) =>
      new Error(validationMessage(errors, dataVar))) satisfies FastifyServerOptions['schemaErrorFormatter'],
  } satisfies FastifyServerOptions & { http: object };
}
