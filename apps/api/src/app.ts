import { ErrorReply } from '@fabscope/contracts';
import { AjvCompiler } from '@fastify/ajv-compiler';
import fastifySwagger from '@fastify/swagger';
import Fastify, { type FastifyError, type FastifyInstance } from 'fastify';
import { isLoopbackHost, tokenMatches } from './auth.ts';
import { UpstreamError } from './emulator-client.ts';
import { installAnswerCache } from './http/answer-cache.ts';
import { installErrorTrace, noteCause, sendError } from './http/errors.ts';
import { Listings } from './http/listings.ts';
import { installPressureLimits, type PressureOptions } from './http/pressure.ts';
import { installRoutePolicy } from './http/route-policy.ts';
import { registerSecurityHeaders } from './http/security-headers.ts';
import { validationMessage } from './http/validation-message.ts';
import { isAppPath, registerWebAssets } from './http/web-assets.ts';
import { JobSourceError } from './jobs/job.ts';
import { type AppState, registerAppPlugins } from './plugins/index.ts';
import { alarmRoutes } from './routes/alarms.ts';
import { analysisRoutes } from './routes/analysis.ts';
import { controlRoutes } from './routes/control.ts';
import { eventRoutes } from './routes/events.ts';
import { fabricRoutes } from './routes/fabric.ts';
import { faultRoutes } from './routes/faults.ts';
import { historyRoutes } from './routes/history.ts';
import { instantRoutes } from './routes/instant.ts';
import { jobRoutes } from './routes/jobs.ts';
import { linksRoutes } from './routes/links.ts';
import { linksExportRoutes } from './routes/links-export.ts';
import { streamRoutes } from './routes/stream.ts';
import { topologyLiveRoutes } from './routes/topology-live.ts';

export interface AppOptions {
  /** The application's state, each part a decorator the routes read (plugins/). */
  state: AppState;
  /** The address the API listens on: beyond loopback, mutating requests need the token. */
  listenHost: string;
  apiToken?: string | undefined;
  /** Host names accepted besides loopback ones for changes in loopback mode (FABSCOPE_ALLOWED_HOSTS). */
  allowedHosts?: readonly string[] | undefined;
  /** Longest a client may take to send a whole request, headers and body (ms); default 30 s. */
  requestTimeoutMs?: number | undefined;
  /** Built web app (apps/web/dist); absent → `/` explains how to build it. */
  webRoot?: string | undefined;
  /**
   * Fastify's pino logger: `level` (default `warn`: every 5xx leaves one line; `info` adds a line
   * per request) and where lines go (default stderr). false: no log (in-process tests).
   */
  logger?: false | { level?: string | undefined; stream?: NodeJS.WritableStream | undefined };
  /** Limits on expensive routes and the pressure they give way to (http/pressure.ts). */
  pressure?: PressureOptions;
}

export const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;
const BODY_LIMIT_BYTES = 1 << 20;
export const MAX_HEADER_BYTES = 64 * 1024;

/**
 * Bodies are validated as sent (`null` or `1` is not a boolean); query strings, which are text,
 * are converted to the schema's types, after route-policy.ts has checked that numbers are plain
 * decimals.
 */
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

export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const { state, listenHost, apiToken, webRoot } = options;
  const requestTimeoutMs = options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
  const logger = options.logger ?? false;
  const app = Fastify({
    logger: logger && { level: logger.level ?? 'warn', stream: logger.stream ?? process.stderr },
    // Idle keep-alive sockets would otherwise hold close() open.
    forceCloseConnections: true,
    bodyLimit: BODY_LIMIT_BYTES,
    // A client that stops half-way through its headers or body is dropped after this; Node checks
    // every connectionsCheckingInterval, so that is kept well below the limit.
    requestTimeout: requestTimeoutMs,
    http: {
      headersTimeout: requestTimeoutMs,
      // Room for the longest query the schemas allow (100 link ids of up to 200 characters);
      // beyond it Node answers 431 itself.
      maxHeaderSize: MAX_HEADER_BYTES,
      connectionsCheckingInterval: Math.max(50, Math.min(5000, Math.floor(requestTimeoutMs / 4))),
    },
    // Longer than clients keep an idle connection before reusing it (browsers, proxies with a
    // 60 s idle limit): a server closing first races a request sent on the closing socket (ECONNRESET).
    keepAliveTimeout: 65_000,
    // Longer than any path parameter's maxLength in the schemas: a long id is the schema's 400;
    // only a path past this is 414.
    routerOptions: { maxParamLength: 1024 },
    schemaController: { compilersFactory: validatorCompilers() as never },
    // One sentence per bad parameter, the allowed values said once (http/validation-message.ts).
    schemaErrorFormatter: (errors, dataVar) => new Error(validationMessage(errors, dataVar)),
  });

  const protect = !isLoopbackHost(listenHost);
  const methods = installRoutePolicy(app, {
    protect,
    apiToken,
    allowedHosts: new Set((options.allowedHosts ?? []).map((h) => h.toLowerCase())),
  });

  // First: a 5xx answered by any later hook or route leaves its log line.
  installErrorTrace(app);
  // Expensive routes are refused (503) before their request is parsed when too many run or the
  // event loop lags; /health reports the figures.
  await installPressureLimits(app, options.pressure);
  app.decorate('listings', new Listings());
  // Its onSend hook must see the JSON text before @fastify/compress does (registered next). It asks
  // the drawing's version as it is installed, before the decorators exist: read from the state.
  installAnswerCache(
    app,
    () => state.sampler.tickCount,
    () => state.fabric.drawn?.version ?? 0,
  );
  await registerSecurityHeaders(app);
  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.0.3',
      info: {
        title: 'fabscope API',
        version: '1',
        description:
          'Per-link utilization (fraction 0..1), rankings, routes and adaptive-routing control for HPC fabrics. ' +
          'Mutating requests need `Authorization: Bearer <FABSCOPE_API_TOKEN>` when the API listens beyond loopback, ' +
          'and a loopback Host (or one in FABSCOPE_ALLOWED_HOSTS) when it listens on loopback.',
      },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
    },
  });
  app.addSchema(ErrorReply);

  // Store errors name internal addresses: only this machine, or a client with the token, sees them.
  // Health also says how long the event loop makes answers wait (under-pressure's figures).
  app.addHook('preSerialization', async (request, reply, payload) => {
    if (request.routeOptions.url !== '/api/v1/health' || reply.statusCode !== 200) return payload;
    const { eventLoopDelay, eventLoopUtilized } = app.memoryUsage();
    const health = {
      ...(payload as object),
      eventLoopDelayMs: Math.round(eventLoopDelay * 10) / 10,
      eventLoopUtilization: Math.round(eventLoopUtilized * 1000) / 1000,
    };
    if (!seesInternals(request.socket.remoteAddress, request.headers.authorization, apiToken)) return health;
    const detailed = app.sampler.healthNow().detailedError;
    return detailed === undefined ? health : { ...health, error: detailed };
  });

  app.setErrorHandler((error: FastifyError, _request, reply) => {
    // An upstream that failed (the emulator, Prometheus, a job source) is named with what it did.
    if (error instanceof UpstreamError) return sendError(reply, error.statusCode, error.message);
    if (error instanceof JobSourceError) return sendError(reply, 502, error.message);
    const status = error.statusCode !== undefined && error.statusCode >= 400 ? error.statusCode : 500;
    if (status >= 500) {
      sendError(reply, status, 'internal error');
      // Internals stay in the log (installErrorTrace, after the answer), not in the answer.
      noteCause(reply, `${error.name}: ${error.message}`, error);
      return reply;
    }
    return sendError(reply, status, error.message);
  });

  // The application's decorators, after the external plugins and before the routes that read them.
  await registerAppPlugins(app, state);

  await app.register(
    async (api) => {
      await api.register(fabricRoutes);
      await api.register(linksRoutes);
      await api.register(analysisRoutes);
      await api.register(controlRoutes);
      await api.register(faultRoutes);
      await api.register(streamRoutes);
      await api.register(historyRoutes);
      await api.register(instantRoutes);
      await api.register(eventRoutes);
      await api.register(jobRoutes);
      await api.register(linksExportRoutes);
      await api.register(topologyLiveRoutes);
      await api.register(alarmRoutes);
      api.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
    },
    { prefix: '/api/v1' },
  );

  const hasWeb = await registerWebAssets(app, webRoot);
  /** A method no route of the path takes: 405 naming those it does (null: not that case). */
  const notAllowed = (method: string, url: string) => {
    const path = pathOf(url);
    const allowed = methods.allowed(path);
    if (method !== 'TRACE' && (allowed.length === 0 || allowed.includes(method))) return null;
    const allow = (allowed.length > 0 ? allowed : ['GET', 'HEAD']).join(', ');
    return { path, allow };
  };
  // Before a body is parsed: a method that carries one (QUERY) would otherwise be refused for its
  // missing Content-Type (400) before the router's answer, 405, is given.
  app.addHook('onRequest', async (request, reply) => {
    if (request.routeOptions.url !== undefined) return;
    const refused = notAllowed(request.method, request.url);
    if (refused)
      return sendError(
        reply,
        405,
        `${request.method} is not allowed on ${refused.path}; use ${refused.allow}`,
        {
          allow: refused.allow,
        },
      );
  });
  app.setNotFoundHandler((request, reply) => {
    const path = pathOf(request.url);
    const refused = notAllowed(request.method, request.url);
    if (refused) {
      return sendError(reply, 405, `${request.method} is not allowed on ${path}; use ${refused.allow}`, {
        allow: refused.allow,
      });
    }
    // Missing API paths and files are 404s; other GETs are the dashboard's own routes.
    if (!isAppPath(path) || (request.method !== 'GET' && request.method !== 'HEAD')) {
      return sendError(reply, 404, `no route ${request.method} ${path}`);
    }
    if (hasWeb) return reply.sendFile('index.html');
    return reply
      .code(503)
      .type('text/plain')
      .send('The web app is not built: run `npm run build` (npm start does it for you).\n');
  });
  return app;
}

/** The path of a request target in origin or absolute form, without its query. */
function pathOf(url: string): string {
  try {
    return new URL(url, 'http://request.invalid').pathname;
  } catch {
    return url.split('?')[0] ?? url;
  }
}

/** Whether `request` may see internal details (store URLs): from this machine, or with the token. */
export function seesInternals(
  remoteAddress: string | undefined,
  authorization: string | undefined,
  apiToken: string | undefined,
): boolean {
  if (remoteAddress !== undefined && isLoopbackHost(remoteAddress)) return true;
  return apiToken !== undefined && tokenMatches(authorization, apiToken);
}
