import { ErrorReply } from '@fabscope/contracts';
import type { FastifyInstance, RouteOptions } from 'fastify';
import { loopbackRequestAllowed, tokenMatches } from '../auth.ts';
import { sendError } from './errors.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Methods per route pattern, filled in as routes are added (405 answers, route enumeration). */
    routeTable: MethodTable;
  }
  interface FastifyContextConfig {
    /** The route changes the fabric or emulator; default true for POST/PUT/PATCH/DELETE, so new routes are protected. */
    mutates?: boolean;
    /** Query-string parameters that are numbers in the schema. */
    numericQuery?: readonly { name: string; integer: boolean }[];
  }
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export interface RoutePolicyOptions {
  /** Beyond loopback: every mutating route needs the token (and is refused without one set). */
  protect: boolean;
  apiToken?: string | undefined;
  /** Host names accepted besides loopback ones in loopback mode (FABSCOPE_ALLOWED_HOSTS). */
  allowedHosts: ReadonlySet<string>;
}

/** Methods served per route pattern, to answer 405 with `Allow` on a known path. */
export class MethodTable {
  private readonly routes: { url: string; pattern: RegExp; methods: Set<string>; query?: unknown }[] = [];

  /** Every route pattern the router holds, with its methods and query schema. */
  entries(): { url: string; methods: string[]; query?: unknown }[] {
    return this.routes.map((r) => ({ url: r.url, methods: [...r.methods].sort(), query: r.query }));
  }

  /** `query`: the GET route's query schema. */
  add(url: string, methods: readonly string[], query?: unknown): void {
    const source = url
      .split('/')
      .map((part) =>
        part === '*' ? '.*' : part.startsWith(':') ? '[^/]+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'),
      )
      .join('/');
    const pattern = new RegExp(`^${source}$`);
    const existing = this.routes.find((r) => r.pattern.source === pattern.source);
    if (existing) {
      for (const m of methods) existing.methods.add(m);
      existing.query ??= query;
    } else this.routes.push({ url, pattern, methods: new Set(methods), query });
  }

  allowed(path: string): string[] {
    const methods = new Set<string>();
    for (const r of this.routes) if (r.pattern.test(path)) for (const m of r.methods) methods.add(m);
    return [...methods].sort();
  }
}

/** A query-string schema refusing parameters it does not name (none when there is no schema). */
function closedQuery(schema: unknown): object {
  if (schema === undefined) return { type: 'object', properties: {}, additionalProperties: false };
  const object = schema as { type?: unknown; additionalProperties?: unknown };
  if (object.type !== 'object' || object.additionalProperties !== undefined) return object as object;
  return { ...object, additionalProperties: false };
}

function numericProperties(schema: unknown): { name: string; integer: boolean }[] {
  const properties = (schema as { properties?: Record<string, { type?: unknown }> } | undefined)?.properties;
  if (!properties) return [];
  return Object.entries(properties)
    .filter(([, p]) => p.type === 'integer' || p.type === 'number')
    .map(([name, p]) => ({ name, integer: p.type === 'integer' }));
}

const DECIMAL_INTEGER = /^-?\d{1,15}$/;
const DECIMAL_NUMBER = /^-?\d{1,15}(\.\d{1,15})?$/;

/**
 * Security and request rules decided on the matched route: the token or a loopback Host/Origin on
 * mutations, plain decimal numbers in query strings, and the errors each route documents.
 */
export function installRoutePolicy(app: FastifyInstance, options: RoutePolicyOptions): MethodTable {
  const methods = new MethodTable();
  app.decorate('routeTable', methods);

  app.addHook('onRoute', (route: RouteOptions) => {
    const list = (Array.isArray(route.method) ? route.method : [route.method]).map((m) => m.toUpperCase());
    const config = (route.config ?? {}) as NonNullable<RouteOptions['config']>;
    const mutates = config.mutates ?? list.some((m) => !SAFE_METHODS.has(m));
    route.config = { ...config, mutates, numericQuery: numericProperties(route.schema?.querystring) };
    const api = route.url.startsWith('/api/');
    // A misspelt parameter is a 400, not an ignored filter: decided here once for every route.
    if (api) route.schema = { ...route.schema, querystring: closedQuery(route.schema?.querystring) };
    methods.add(route.url, list, api && list.includes('GET') ? route.schema?.querystring : undefined);
    if (!api || !route.schema || route.schema.hide) return;
    const response = { ...(route.schema.response as Record<string, unknown> | undefined) };
    response['405'] ??= ErrorReply;
    if (route.schema.body) response['413'] ??= ErrorReply;
    if (route.url.includes(':')) response['414'] ??= ErrorReply;
    response['431'] ??= {
      type: 'null',
      description: 'Request line and headers longer than 64 KiB (answered by Node itself, without a body)',
    };
    if (mutates) {
      response['401'] ??= ErrorReply;
      response['403'] ??= ErrorReply;
      // Beyond loopback the token is required; on loopback a request may go without it.
      const security = options.protect ? [{ bearer: [] }] : [{}, { bearer: [] }];
      route.schema = { ...route.schema, security } as typeof route.schema;
    }
    route.schema = { ...route.schema, response };
  });

  // Before the body is read: an unauthorised client never gets its body parsed.
  app.addHook('onRequest', async (request, reply) => {
    if (!request.routeOptions.config.mutates) return;
    if (options.protect) {
      if (!options.apiToken) {
        return sendError(
          reply,
          403,
          'changes are refused: the API listens beyond loopback and FABSCOPE_API_TOKEN is not set',
        );
      }
      if (!tokenMatches(request.headers.authorization, options.apiToken)) {
        return sendError(reply, 401, 'send Authorization: Bearer <FABSCOPE_API_TOKEN> to change the fabric');
      }
      return;
    }
    const refused = loopbackRequestAllowed(request.headers, options.allowedHosts);
    if (refused) return sendError(reply, 403, refused);
  });

  app.addHook('preValidation', async (request, reply) => {
    const numeric = request.routeOptions.config.numericQuery;
    if (!numeric || numeric.length === 0) return;
    const query = request.query as Record<string, unknown>;
    for (const { name, integer } of numeric) {
      const value = query[name];
      if (value === undefined) continue;
      if (typeof value !== 'string') return sendError(reply, 400, `querystring/${name} must be given once`);
      if (!(integer ? DECIMAL_INTEGER : DECIMAL_NUMBER).test(value)) {
        return sendError(
          reply,
          400,
          `querystring/${name} must be a decimal ${integer ? 'integer' : 'number'}, got ${JSON.stringify(value)}`,
        );
      }
    }
  });
  return methods;
}
