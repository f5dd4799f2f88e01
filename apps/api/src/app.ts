import Fastify, { type FastifyInstance } from 'fastify';
import { isLoopbackHost } from './auth.ts';
import { installAnswerCache } from './http/answer-cache.ts';
import { installErrorHandler, installErrorTrace } from './http/errors.ts';
import { installHealthDetails } from './http/health-details.ts';
import { Listings } from './http/listings.ts';
import { installNotFound } from './http/not-found.ts';
import { installRoutePolicy } from './http/route-policy.ts';
import { DEFAULT_REQUEST_TIMEOUT_MS, serverOptions } from './http/server-options.ts';
import { registerWebAssets } from './http/web-assets.ts';
import { registerAppPlugins } from './plugins/app/index.ts';
import type { AppSource } from './plugins/app-source.ts';
import { compressPlugin } from './plugins/external/compress.ts';
import { helmetPlugin } from './plugins/external/helmet.ts';
import { swaggerPlugin } from './plugins/external/swagger.ts';
import { type PressureOptions, underPressurePlugin } from './plugins/external/under-pressure.ts';
import { apiRoutes } from './routes/index.ts';

/** The app's parts as given (tests), or what to build them from (plugins/app-source.ts), and its HTTP settings. */
export type AppOptions = AppSource & {
  /** The address the API listens on: beyond loopback, mutating requests need the token. */
  listenHost: string;
  apiToken?: string | undefined;
  /** Host names accepted besides loopback ones for changes in loopback mode (FABSCOPE_ALLOWED_HOSTS). */
  allowedHosts?: readonly string[] | undefined;
  /** Longest a client may take to send a whole request, headers and body (ms); default 30 s. */
  requestTimeoutMs?: number | undefined;
  /** Built web app (apps/web/dist); absent → `/` explains how to build it. */
  webRoot?: string | undefined;
  /** Pino logger options (default level `warn`: one line per 5xx; stream stderr); false: no log. */
  logger?: false | { level?: string | undefined; stream?: NodeJS.WritableStream | undefined };
  /** Limits on expensive routes and the pressure they give way to (plugins/external/under-pressure.ts). */
  pressure?: PressureOptions;
};

/** The API in layers, as fastify/demo's `app.ts`: HTTP machinery, external plugins, plugins/app/, routes. */
export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const { state, build, listenHost, apiToken } = options;
  const logger = options.logger ?? false;
  const app = Fastify(
    serverOptions(
      options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS,
      logger && { level: logger.level ?? 'warn', stream: logger.stream ?? process.stderr },
    ),
  );
  try {
    const methods = installRoutePolicy(app, {
      protect: !isLoopbackHost(listenHost),
      apiToken,
      allowedHosts: new Set((options.allowedHosts ?? []).map((h) => h.toLowerCase())),
    });
    // First: a 5xx answered by any later hook or route leaves its log line.
    installErrorTrace(app);
    await app.register(underPressurePlugin, options.pressure ?? {});
    app.decorate('listings', new Listings());
    // Its onSend hook must see the JSON text before compress does; decorators are read per request.
    installAnswerCache(
      app,
      () => app.sampler.tickCount,
      () => (app.hasDecorator('fabric') ? (app.fabric.drawn?.version ?? 0) : 0),
    );
    await app.register(helmetPlugin);
    await app.register(compressPlugin);
    await app.register(swaggerPlugin);
    installHealthDetails(app, apiToken);
    installErrorHandler(app);
    await registerAppPlugins(app, state ? { state } : { build });
    await app.register(apiRoutes, { prefix: '/api/v1' });
    installNotFound(app, methods, await registerWebAssets(app, options.webRoot));
    return app;
  } catch (error) {
    await app.close().catch(() => {});
    throw error;
  }
}
