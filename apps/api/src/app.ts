import { existsSync } from 'node:fs';
import fastifyStatic from '@fastify/static';
import fastifySwagger from '@fastify/swagger';
import Fastify, { type FastifyError, type FastifyInstance } from 'fastify';
import { isLoopbackHost, tokenMatches } from './auth.ts';
import type { ApiContext } from './context.ts';
import { analysisRoutes } from './routes/analysis.ts';
import { controlRoutes } from './routes/control.ts';
import { eventRoutes } from './routes/events.ts';
import { fabricRoutes } from './routes/fabric.ts';
import { faultRoutes } from './routes/faults.ts';
import { historyRoutes } from './routes/history.ts';
import { streamRoutes } from './routes/stream.ts';
import { ErrorReply } from './schemas.ts';

export interface AppOptions {
  ctx: ApiContext;
  /** The address the API listens on: beyond loopback, mutating requests need the token. */
  listenHost: string;
  apiToken?: string | undefined;
  /** Built web app (apps/web/dist); absent → `/` explains how to build it. */
  webRoot?: string | undefined;
  logger?: boolean;
}

const MUTATING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const { ctx, listenHost, apiToken, webRoot } = options;
  const app = Fastify({
    logger: options.logger ?? false,
    // Idle keep-alive sockets would otherwise hold close() open.
    forceCloseConnections: true,
    ajv: { customOptions: { removeAdditional: false, coerceTypes: 'array', allErrors: false } },
  });

  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.0.3',
      info: {
        title: 'fabscope API',
        version: '1',
        description:
          'Per-link utilization (fraction 0..1), rankings, routes and adaptive-routing control for HPC fabrics. ' +
          'Mutating requests need `Authorization: Bearer <FABSCOPE_API_TOKEN>` when the API listens beyond loopback.',
      },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
    },
  });
  app.addSchema(ErrorReply);

  const protect = !isLoopbackHost(listenHost);
  app.addHook('onRequest', async (request, reply) => {
    if (!protect || !MUTATING.has(request.method) || !request.url.startsWith('/api/')) return;
    if (!apiToken) {
      return reply.code(403).send({
        statusCode: 403,
        error: 'Forbidden',
        message: 'changes are refused: the API listens beyond loopback and FABSCOPE_API_TOKEN is not set',
      });
    }
    if (!tokenMatches(request.headers.authorization, apiToken)) {
      return reply.code(401).send({
        statusCode: 401,
        error: 'Unauthorized',
        message: 'send Authorization: Bearer <FABSCOPE_API_TOKEN> to change the fabric',
      });
    }
  });

  app.setErrorHandler((error: FastifyError, request, reply) => {
    const status = error.statusCode ?? 500;
    if (status >= 500) {
      request.log.error(error);
      return reply
        .code(status)
        .send({ statusCode: status, error: 'Internal Server Error', message: 'internal error' });
    }
    return reply.code(status).send({ statusCode: status, error: 'Bad Request', message: error.message });
  });

  await app.register(
    async (api) => {
      await api.register(fabricRoutes, { ctx });
      await api.register(analysisRoutes, { ctx });
      await api.register(controlRoutes, { ctx });
      await api.register(faultRoutes, { ctx });
      await api.register(streamRoutes, { ctx });
      await api.register(historyRoutes, { ctx });
      await api.register(eventRoutes, { ctx });
      api.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
    },
    { prefix: '/api/v1' },
  );

  const hasWeb = webRoot !== undefined && existsSync(`${webRoot}/index.html`);
  if (hasWeb) {
    await app.register(fastifyStatic, { root: webRoot, prefix: '/', wildcard: false });
  }
  app.setNotFoundHandler((request, reply) => {
    // Missing API paths and missing build assets are 404s; other paths are the app's own routes.
    if (request.url.startsWith('/api/') || request.url.startsWith('/assets/') || request.method !== 'GET') {
      return reply.code(404).send({
        statusCode: 404,
        error: 'Not Found',
        message: `no route ${request.method} ${request.url.split('?')[0]}`,
      });
    }
    if (hasWeb) return reply.sendFile('index.html');
    return reply
      .code(503)
      .type('text/plain')
      .send('The web app is not built: run `npm run build` (npm start does it for you).\n');
  });
  return app;
}
