import type { FastifyInstance } from 'fastify';
import { sendError } from './errors.ts';
import type { MethodTable } from './route-policy.ts';
import { isAppPath } from './web-assets.ts';

/** The path of a request target in origin or absolute form, without its query. */
function pathOf(url: string): string {
  try {
    return new URL(url, 'http://request.invalid').pathname;
  } catch {
    return url.split('?')[0] ?? url;
  }
}

/** Requests no route takes: 405 naming the methods a path takes, 404, or the dashboard's index.html. */
export function installNotFound(app: FastifyInstance, methods: MethodTable, hasWeb: boolean): void {
  const refuseMethod = (method: string, url: string) => {
    const path = pathOf(url);
    const allowed = methods.allowed(path);
    if (method !== 'TRACE' && (allowed.length === 0 || allowed.includes(method))) return null;
    const allow = (allowed.length > 0 ? allowed : ['GET', 'HEAD']).join(', ');
    return { message: `${method} is not allowed on ${path}; use ${allow}`, headers: { allow } };
  };
  // Before a body is parsed, so a body-carrying method gets 405, not 400 for its Content-Type.
  app.addHook('onRequest', async (request, reply) => {
    if (request.routeOptions.url !== undefined) return;
    const refused = refuseMethod(request.method, request.url);
    if (refused) return sendError(reply, 405, refused.message, refused.headers);
  });
  app.setNotFoundHandler((request, reply) => {
    const path = pathOf(request.url);
    const refused = refuseMethod(request.method, request.url);
    if (refused) return sendError(reply, 405, refused.message, refused.headers);
    if (!isAppPath(path) || (request.method !== 'GET' && request.method !== 'HEAD')) {
      return sendError(reply, 404, `no route ${request.method} ${path}`);
    }
    if (hasWeb) return reply.sendFile('index.html');
    return reply
      .code(503)
      .type('text/plain')
      .send('The web app is not built: run `npm run build` (npm start does it for you).\n');
  });
}
